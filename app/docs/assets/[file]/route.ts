import fs from "node:fs/promises";
import path from "node:path";
import { json } from "@/server/http/endpoint";

/** Only these files of swagger-ui-dist are served (no path from the URL reaches the filesystem). */
const ASSETS: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};
const cache = new Map<string, Promise<Buffer>>();

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  const type = ASSETS[file];
  if (!type) return json(404, { error: { code: "NOT_FOUND", message: "No such asset", details: [] } });
  let body = cache.get(file);
  if (!body) {
    body = fs.readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", file));
    cache.set(file, body);
  }
  return new Response(new Uint8Array(await body), {
    headers: { "content-type": type, "cache-control": "public, max-age=3600" },
  });
}
