import { json } from "@/server/http/endpoint";

// Unknown API paths answer JSON, never Next's HTML 404 page (OPTIONS too: there is no route whose methods to list).
function notFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return json(404, {
    error: { code: "NOT_FOUND", message: `No API path ${request.method} ${pathname}; see /docs`, details: [] },
  });
}

export {
  notFound as GET,
  notFound as POST,
  notFound as PUT,
  notFound as PATCH,
  notFound as DELETE,
  notFound as OPTIONS,
};
