// Configuration comes from the environment only (spec 2.6) and is validated once at start,
// so a bad value stops the process with a message naming the variable instead of failing later.
import path from "node:path";
import { PACKAGE_DIR } from "./package-info.ts";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type DatabaseConfig = { kind: "pglite"; dataDir: string } | { kind: "postgresql"; url: string };

/** The environment, loosely typed so tests can pass a plain object. */
export type Env = Record<string, string | undefined>;

export interface Config {
  database: DatabaseConfig;
  port: number;
  logLevel: LogLevel;
}

/** Documented default; it is resolved against the package folder, so it means sample-app/data/pglite from any working directory (and /app/data/pglite in the image). */
export const DEFAULT_DATABASE_URL = "pglite:./sample-app/data/pglite";
export const DEFAULT_PGLITE_DIR = path.join(PACKAGE_DIR, "data", "pglite");
export const DEFAULT_PORT = 8000;
export const DEFAULT_LOG_LEVEL: LogLevel = "info";

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

/** Hides the password of a connection string so it can be logged or shown in an error. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return raw.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  }
}

export function describeDatabase(db: DatabaseConfig): string {
  return db.kind === "pglite" ? `pglite ${db.dataDir}` : `postgresql ${redactUrl(db.url)}`;
}

// An empty value (e.g. `LOG_LEVEL=` in an env file) means "use the default".
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parseDatabaseUrl(raw: string | undefined, cwd: string, problems: string[]): DatabaseConfig {
  if (raw === undefined) return { kind: "pglite", dataDir: DEFAULT_PGLITE_DIR };
  if (raw.startsWith("pglite:")) {
    const dir = raw.slice("pglite:".length);
    if (!dir) problems.push('DATABASE_URL "pglite:" needs a data folder, e.g. pglite:./data/pglite');
    return { kind: "pglite", dataDir: path.resolve(cwd, dir) };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    let host = "";
    try {
      const url = new URL(raw);
      host = url.hostname || (url.searchParams.get("host") ?? ""); // ?host= allows a unix socket folder
    } catch {
      // reported below
    }
    if (!host)
      problems.push(
        `DATABASE_URL is not a valid PostgreSQL URL (got "${redactUrl(raw)}"); expected postgresql://user:password@host:5432/database`,
      );
    return { kind: "postgresql", url: raw };
  }
  problems.push(
    `DATABASE_URL must start with "pglite:" (embedded, a data folder) or "postgresql://" (a server); got "${redactUrl(raw).slice(0, 80)}"`,
  );
  return { kind: "pglite", dataDir: DEFAULT_PGLITE_DIR };
}

function parsePort(raw: string | undefined, problems: string[]): number {
  if (raw === undefined) return DEFAULT_PORT;
  const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
  // 0 asks the OS for a free port (used by tests); the started log line shows the real one.
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`APP_PORT must be an integer from 0 to 65535; got "${raw.slice(0, 40)}"`);
    return DEFAULT_PORT;
  }
  return port;
}

function parseLogLevel(raw: string | undefined, problems: string[]): LogLevel {
  if (raw === undefined) return DEFAULT_LOG_LEVEL;
  const level = raw.toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}; got "${raw.slice(0, 40)}"`);
  return DEFAULT_LOG_LEVEL;
}

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const config: Config = {
    database: parseDatabaseUrl(read(env, "DATABASE_URL"), cwd, problems),
    port: parsePort(read(env, "APP_PORT"), problems),
    logLevel: parseLogLevel(read(env, "LOG_LEVEL"), problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
