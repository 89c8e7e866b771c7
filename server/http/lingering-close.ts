import diagnostics from "node:diagnostics_channel";
import type http from "node:http";
import type net from "node:net";

/**
 * A lingering close, as web servers do it (nginx's `lingering_close`, Apache's `lingering_close`): an answer that
 * closes its connection while the client is still sending the body (a 413 at the body limit, a 401 on the headers,
 * server/core/body.ts) must not close the socket at once. Node's HTTP server does: after the answer it ends the
 * socket and destroys it as soon as its FIN is out, with the client's unread bytes still arriving, and the kernel
 * answers those with a reset. A client that is busy writing then sees EPIPE or ECONNRESET, often before it has read
 * the answer already in its buffers, and reports a broken connection instead of the 413 (a CI run failed on this).
 *
 * So, for an answer that ends its connection while the request body is incomplete, the socket stays open for reading
 * after the server's FIN: whatever the client still sends is read and dropped (Node's parser discards the dumped
 * body) until the client closes its side, sends nothing for `LINGER.idleMs`, or `LINGER.totalMs` have passed since
 * the answer (nginx's `lingering_timeout` and `lingering_time`, shorter), and then it is destroyed.
 * Public Node APIs only: the documented diagnostics channel `http.server.response.finish` names the request, answer
 * and socket just before Node calls `socket.destroySoon()`, and one tick later the destroy that it scheduled for the
 * socket's `finish` is replaced by the linger.
 */
export const LINGER = { idleMs: 500, totalMs: 3_000 };

type Finish = { request: http.IncomingMessage; response: http.ServerResponse; socket: net.Socket };
type Globals = { __flowbenchLingeringClose?: (message: unknown) => void };

function linger(socket: net.Socket, limits: typeof LINGER): void {
  // destroySoon() ended the socket and will destroy it on `finish` (its FIN sent): keep reading instead
  socket.removeListener("finish", socket.destroy);
  if (socket.destroyed) return;
  const stop = () => {
    clearTimeout(total);
    clearTimeout(idle);
    socket.destroy();
  };
  const total = setTimeout(stop, limits.totalMs).unref();
  const idle = setTimeout(stop, limits.idleMs).unref();
  socket.on("data", () => idle.refresh());
  socket.once("end", stop); // the client closed its side: nothing more to read
  socket.once("close", stop);
  socket.on("error", () => undefined); // a reset while lingering is the client's business
  socket.resume();
}

/** Subscribes the lingering close for every HTTP server of this process; returns the unsubscribe (tests). */
export function installLingeringClose(limits = LINGER): () => void {
  const g = globalThis as typeof globalThis & Globals;
  if (g.__flowbenchLingeringClose) return () => undefined;
  const onFinish = (message: unknown) => {
    const { request, response, socket } = message as Finish;
    // `_last` is Node's own "this answer ends the connection"; the body is incomplete when the request has not ended
    const closing = (response as http.ServerResponse & { _last?: boolean })._last === true;
    if (!closing || request.complete || !socket || socket.destroyed) return;
    process.nextTick(linger, socket, limits);
  };
  g.__flowbenchLingeringClose = onFinish;
  diagnostics.subscribe("http.server.response.finish", onFinish);
  return () => {
    diagnostics.unsubscribe("http.server.response.finish", onFinish);
    delete g.__flowbenchLingeringClose;
  };
}
