/** The Chromium to launch, or undefined to let Playwright use the browser its installer fetched. */
export function chromiumPath(): string | undefined;
