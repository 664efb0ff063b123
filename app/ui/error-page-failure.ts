/** The last-resort page: plain HTML with no scripts, shown when the error page cannot render. */
export function errorPageFailureHtml(nonce: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error</title>
<style nonce="${nonce}">
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#111214;color:#f4f4f5;font:16px/1.5 system-ui,sans-serif;text-align:center;padding:1.5rem}
a{color:#ffb020;font-weight:600}
</style>
</head>
<body>
<main>
<h1>An error occurred while showing the error page</h1>
<p><a href="/">Go back to home</a></p>
</main>
</body>
</html>`;
}
