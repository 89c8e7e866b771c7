import http from "node:http";
import { installLingeringClose } from "./lingering-close";

/**
 * The server of lingering-close.test.ts, in a process of its own (in one process the client's and the server's events
 * interleave so that the reset never wins the race): reads a body up to 64 KiB, then answers 413 with
 * `Connection: close` without reading on, as server/core/body.ts does. `linger` as argv[2] installs the lingering
 * close; the port it listens on is printed.
 */
if (process.argv[2] === "linger") installLingeringClose();
const server = http.createServer((req, res) => {
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= 64 * 1024) return;
    req.off("data", onData);
    res.writeHead(413, { connection: "close", "content-type": "application/json" });
    res.end('{"error":{"code":"PAYLOAD_TOO_LARGE"}}');
  };
  req.on("data", onData);
});
server.listen(0, "127.0.0.1", () => console.log((server.address() as { port: number }).port));
