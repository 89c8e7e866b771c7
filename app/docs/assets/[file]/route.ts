import fs from "node:fs/promises";
import path from "node:path";
import { json } from "@/server/http/endpoint";

let bundle: Promise<Buffer> | undefined;

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  if ((await params).file !== "scalar.js") return json(404, { error: { code: "NOT_FOUND", message: "No such asset", details: [] } });
  bundle ??= fs.readFile(path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js"));
  return new Response(new Uint8Array(await bundle), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
