import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { limitBody } from "./body";

/** A POST whose body arrives in the given chunks (no Content-Length unless given: chunked, as a stream). */
function post(chunks: Array<string | Uint8Array>, headers: Record<string, string> = {}) {
  const encoder = new TextEncoder();
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[pulled++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      },
    },
    { highWaterMark: 0 },
  ); // a chunk is pulled only when read, so `pulled` counts what was read
  const request = new Request("http://localhost/api/x", {
    method: "POST",
    headers: { "transfer-encoding": "chunked", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled };
}

const tooLarge = (e: unknown) => e instanceof ApiError && e.status === 413 && e.code === "PAYLOAD_TOO_LARGE";

describe("limitBody", () => {
  it("reads the chunks as UTF-8 text, a character split between chunks included, and drops a leading BOM", async () => {
    const euro = new TextEncoder().encode("€"); // three bytes
    const { request } = post([new Uint8Array([0xef, 0xbb, 0xbf]), '{"a":"', euro.slice(0, 1), euro.slice(1), '"}']);
    const guarded = limitBody(request, 1000);
    expect(guarded.unread()).toBe(true);
    expect(await guarded.text()).toBe('{"a":"€"}');
    expect(guarded.unread()).toBe(false);
  });

  it("refuses at the first chunk past the limit and leaves the rest unread", async () => {
    const { request, pulled } = post(["x".repeat(6), "x".repeat(6), "x".repeat(6)]);
    const guarded = limitBody(request, 10);
    await expect(guarded.text()).rejects.toSatisfy(tooLarge);
    expect(pulled()).toBeLessThan(3);
    expect(guarded.unread()).toBe(true);
  });

  it("refuses a Content-Length over the limit before a byte is read", async () => {
    const { request, pulled } = post(["x".repeat(50)], { "content-length": "50", "transfer-encoding": "" });
    const guarded = limitBody(request, 10);
    await expect(guarded.text()).rejects.toSatisfy(tooLarge);
    expect(pulled()).toBe(0);
  });

  it("gives a face that reads the request itself the same limited body, made only when asked for", async () => {
    const { request, pulled } = post(["abc", "def"]);
    const guarded = limitBody(request, 100);
    expect(pulled()).toBe(0);
    const limited = guarded.request;
    expect(guarded.request).toBe(limited); // made once
    expect(limited.headers.get("transfer-encoding")).toBe("chunked");
    expect(await limited.text()).toBe("abcdef");
    expect(guarded.unread()).toBe(false);

    const over = limitBody(post(["x".repeat(8), "x".repeat(8)]).request, 10);
    await expect(over.request.text()).rejects.toSatisfy(tooLarge);
    expect(over.unread()).toBe(true);
  });

  it("passes a request without a body through", async () => {
    const request = new Request("http://localhost/api/x");
    const guarded = limitBody(request, 10);
    expect(guarded.request).toBe(request);
    expect(await guarded.text()).toBe("");
    expect(guarded.unread()).toBe(false);
  });
});
