// The API reference: Swagger UI served from node_modules (swagger-ui-dist; no CDN, no external fonts), rendering
// /api/openapi.json. "Try it out" works against this server with a bearer token (Authorize button).
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>API reference · Flowbench</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  <style>
    body { margin: 0; background: #f8fafc; font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    .fb-bar { display: flex; align-items: center; gap: 12px; padding: 14px 24px; background: #fff; border-bottom: 1px solid #e2e8f0; }
    .fb-bar a { color: #2a56d9; text-decoration: none; font-size: 14px; }
    .fb-bar strong { font-size: 16px; color: #0f172a; }
    .swagger-ui .topbar { display: none; }
    .swagger-ui .info .description table { font-size: 13px; }
    .swagger-ui .info { margin: 24px 0; }
  </style>
</head>
<body>
  <div class="fb-bar"><strong>Flowbench API reference</strong><span style="flex:1"></span><a href="/api/openapi.json">OpenAPI 3.1 JSON</a><a href="/builder">Back to the app</a></div>
  <main id="swagger-ui"></main>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '/api/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      persistAuthorization: true,
      tryItOutEnabled: false,
    });
  </script>
</body>
</html>`;

export function GET(): Response {
  return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" } });
}
