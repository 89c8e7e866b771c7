import type http from "node:http";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "../core/client-address";
import { addDoor } from "./front-door";

type Globals = { __flowbenchClientAddress?: boolean };

/**
 * Route handlers get a WHATWG `Request`, without the socket, and Next only fills in `X-Forwarded-For` when the client
 * did not send one. This front door (front-door.ts; it answers nothing) writes the client's address as
 * server/core/client-address.ts derives it (the socket's peer, or the trusted proxies' `X-Forwarded-For` entry with
 * `TRUSTED_PROXY_HOPS`) into the `x-flowbench-client-address` header of every request, replacing any value the client
 * sent under that name. The login throttle counts failures by it (server/auth/throttle.ts).
 */
export function installClientAddress(trustedProxyHops: number): void {
  const g = globalThis as typeof globalThis & Globals;
  if (g.__flowbenchClientAddress) return;
  g.__flowbenchClientAddress = true;
  addDoor((req: http.IncomingMessage) => {
    req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(
      req.socket.remoteAddress,
      req.headers["x-forwarded-for"],
      trustedProxyHops,
    );
    return false;
  });
}
