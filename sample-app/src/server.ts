// Start-up and shutdown of the whole service: open the database, migrate and seed, listen;
// close stops accepting requests, lets in-flight ones finish, then closes the database.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";
import { createApp } from "./app.ts";
import { describeDatabase, type Config } from "./config.ts";
import { openDatabase, type Database } from "./db.ts";
import { createLogger, type Logger } from "./logger.ts";
import { runMigrations } from "./migrations.ts";
import { SERVICE_VERSION } from "./package-info.ts";

export interface RunningServer {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Stops accepting connections and waits for open requests (forcing them closed after graceMs). */
  close(): Promise<void>;
}

export interface RunningApp extends RunningServer {
  db: Database;
}

/** Listens with the given app; rejects when the port cannot be bound (e.g. EADDRINUSE). */
export function serveApp(app: Hono, port: number, graceMs = 10_000): Promise<RunningServer> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => {
      server.off("error", reject);
      const actual = (server.address() as AddressInfo).port;
      let closing: Promise<void> | undefined;
      resolve({
        port: actual,
        url: `http://127.0.0.1:${actual}`,
        close: () =>
          (closing ??= new Promise<void>((done, fail) => {
            const force = setTimeout(() => server.closeAllConnections(), graceMs);
            force.unref();
            server.close((err) => {
              clearTimeout(force);
              if (err) fail(err);
              else done();
            });
            // close() only waits for active requests; idle keep-alive sockets would hold it open.
            server.closeIdleConnections();
          })),
      });
    });
  });
}

export async function startApp(config: Config, options: { logger?: Logger } = {}): Promise<RunningApp> {
  const logger = options.logger ?? createLogger(config.logLevel);
  logger.info("starting", { version: SERVICE_VERSION, database: describeDatabase(config.database), port: config.port });
  const db = await openDatabase(config.database, logger);
  let server: RunningServer;
  try {
    const migrations = await runMigrations(db);
    for (const step of migrations.applied) logger.info("migration applied", { ...step });
    logger.info("migrations up to date", {
      applied: migrations.applied.length,
      alreadyApplied: migrations.alreadyApplied.length,
    });
    server = await serveApp(createApp({ db, logger }), config.port);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  logger.info("listening", { port: server.port, url: `http://localhost:${server.port}` });
  let closing: Promise<void> | undefined;
  return {
    ...server,
    db,
    close: () =>
      (closing ??= (async () => {
        try {
          await server.close();
        } finally {
          await db.close();
        }
      })()),
  };
}
