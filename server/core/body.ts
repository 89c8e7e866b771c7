import { errors } from "./errors";

/**
 * Request bodies, read by both faces (REST `handle()` in server/http/endpoint.ts, tRPC in server/api/handler.ts) by
 * one rule: a body is read only once the caller is authenticated (each face checks first and reads after), never past
 * its limit (a `Content-Length` over it is 413 PAYLOAD_TOO_LARGE before a byte is read; a chunked body is counted and
 * refused at the first byte over it), and an answer that leaves a body unread closes the connection
 * (`Connection: close`): Node would otherwise read and discard the rest to keep the connection alive, which for a
 * 512 MB upload is seconds of work for a request that was refused on its headers.
 */

/** Whether the request says it carries a body (HTTP/1.1: a non-zero `Content-Length` or `Transfer-Encoding`). */
export function hasBody(headers: Headers): boolean {
  const length = headers.get("content-length");
  return headers.has("transfer-encoding") || (length !== null && length.trim() !== "0");
}

function refuseDeclared(headers: Headers, limit: number): void {
  const declared = Number(headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw errors.tooLarge(limit);
}

/** A request whose body is read under a limit (`limitBody`). */
export type LimitedBody = {
  /** The body as UTF-8 text (a leading BOM dropped, as `Request.text()` does), read straight from the source. */
  text: () => Promise<string>;
  /** The request with the limited body, for a face that reads it itself (tRPC, MCP): made on first use only. */
  readonly request: Request;
  /** Whether the body was left (partly) unread. */
  unread: () => boolean;
};

/**
 * The request with its body limited to `limit` bytes: reading it fails with 413 PAYLOAD_TOO_LARGE (an `ApiError`) at
 * once when `Content-Length` says more, or at the first chunk past the limit (the rest is not read). Nothing is read
 * until `text()` or the returned request's body is; `unread()` tells whether the body was left (partly) unread, so the
 * answer closes the connection (`closeIfUnread`). `text()` reads the source's chunks directly: a second `Request` and
 * a `ReadableStream` around the body cost about as much as reading it (issue 27's profile of the validate endpoint),
 * so they are made only for a face that asks for `request`.
 */
export function limitBody(request: Request, limit: number): LimitedBody {
  if (!request.body || !hasBody(request.headers)) return { text: () => request.text(), request, unread: () => false };
  const source = request.body;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let size = 0;
  let ended = false;
  /** The next chunk within the limit, or undefined at the end. */
  const next = async (): Promise<Uint8Array | undefined> => {
    refuseDeclared(request.headers, limit);
    reader ??= source.getReader();
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      return undefined;
    }
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw errors.tooLarge(limit);
    }
    return value;
  };
  let limited: Request | undefined;
  return {
    async text() {
      const chunks: Uint8Array[] = [];
      for (let chunk = await next(); chunk; chunk = await next()) chunks.push(chunk);
      return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    },
    get request() {
      limited ??= new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: new ReadableStream<Uint8Array>(
          {
            async pull(controller) {
              const chunk = await next();
              if (chunk) controller.enqueue(chunk);
              else controller.close();
            },
            cancel(reason) {
              return reader?.cancel(reason);
            },
          },
          { highWaterMark: 0 }, // pull only when read: nothing is read before the face asks for the body
        ),
        signal: request.signal,
        duplex: "half",
      } as RequestInit);
      return limited;
    },
    unread: () => !ended,
  };
}

/** `response`, closing the connection after it when the request's body was left unread (see above). */
export function closeIfUnread(response: Response, unread: boolean): Response {
  if (!unread) return response;
  const headers = new Headers(response.headers);
  headers.set("connection", "close");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
