// The API reference: Scalar's standalone bundle served from node_modules (no CDN), rendering /api/openapi.json.
// Default web fonts are off so the page makes no request outside this server.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>API reference · Flowbench</title>
  <style>body{margin:0;font-family:ui-sans-serif,system-ui,sans-serif}</style>
</head>
<body>
  <div id="api-reference"></div>
  <script src="/docs/assets/scalar.js"></script>
  <script>
    Scalar.createApiReference('#api-reference', {
      url: '/api/openapi.json',
      withDefaultFonts: false,
      hideClientButton: true,
      telemetry: false,
      showDeveloperTools: 'never',
      metaData: { title: 'Flowbench API reference' },
    })
  </script>
</body>
</html>`;

export function GET(): Response {
  return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" } });
}
