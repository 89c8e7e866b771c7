import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Config } from "../src/config.ts";
import { createLogger, type Logger } from "../src/logger.ts";

export function makeTempDir(prefix = "meal-scenes-test-"): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Collects log lines in memory so tests stay quiet and can assert on them. */
export function captureLogger(level: Config["logLevel"] = "debug"): {
  logger: Logger;
  lines: Array<Record<string, unknown>>;
} {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, logger: createLogger(level, (line) => lines.push(JSON.parse(line) as Record<string, unknown>)) };
}

export function pgliteConfig(dataDir: string): Config {
  return { database: { kind: "pglite", dataDir }, port: 0, logLevel: "debug" };
}

export async function fetchJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${init?.method ?? "GET"} ${url} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body };
}
