/** Whether build/ is missing, older than the sources it is made from, or up to date. */
export function buildState(): "missing" | "stale" | "fresh";
