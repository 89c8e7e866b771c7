import path from "node:path";

/** Where the data lives: an embedded PGlite folder (default) or a PostgreSQL server. */
export type DatabaseTarget =
  | { kind: "pglite"; dataDir: string; display: string }
  | { kind: "postgresql"; url: string; display: string };

export const DEFAULT_DATABASE_URL = "pglite:./data/pglite";

/** This process's database, from DATABASE_URL (light: start-up reads it before loading the Prisma client). */
export function databaseTarget(): DatabaseTarget {
  return parseDatabaseUrl(process.env.DATABASE_URL);
}

/**
 * Parses DATABASE_URL. `pglite:<folder>` (relative to the working directory) or `pglite:memory://` for a
 * throw-away in-memory database; `postgresql://` / `postgres://` for a server. Anything else is rejected with
 * a message that names the variable, because a typo here would otherwise surface as an obscure driver error.
 */
export function parseDatabaseUrl(raw: string | undefined, cwd = process.cwd()): DatabaseTarget {
  const value = (raw ?? "").trim() || DEFAULT_DATABASE_URL;
  if (value.startsWith("pglite:")) {
    const rest = value.slice("pglite:".length);
    // `memory://` or `memory://<name>`: an in-memory database (tests, db:check); each name is its own database.
    if (rest === "memory" || rest.startsWith("memory://")) {
      const dataDir = rest === "memory" ? "memory://" : rest;
      return { kind: "pglite", dataDir, display: `pglite:${dataDir}` };
    }
    if (!rest) throw new Error("DATABASE_URL: `pglite:` needs a folder, e.g. pglite:./data/pglite");
    const dataDir = path.resolve(cwd, rest);
    return { kind: "pglite", dataDir, display: `pglite:${rest}` };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new Error("DATABASE_URL: not a valid postgresql:// URL");
    }
    if (!parsed.pathname || parsed.pathname === "/") {
      throw new Error(
        "DATABASE_URL: the postgresql:// URL must name a database, e.g. postgresql://user@host:5432/flowbench",
      );
    }
    const display = `${parsed.protocol}//${parsed.username ? `${parsed.username}@` : ""}${parsed.host}${parsed.pathname}`;
    return { kind: "postgresql", url: value, display };
  }
  throw new Error("DATABASE_URL: expected pglite:<folder> or postgresql://..., got an unsupported scheme");
}
