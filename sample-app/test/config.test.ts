import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAIN_TS, SAMPLE_APP_DIR as sampleAppDir, TSX_LOADER } from "../scripts/paths.ts";
import { ConfigError, DEFAULT_PGLITE_DIR, loadConfig, type Env } from "../src/config.ts";

function problemsOf(env: Env): string[] {
  try {
    loadConfig(env, "/srv");
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("uses the documented defaults, with the PGlite folder inside sample-app/data", () => {
    expect(loadConfig({}, "/anywhere")).toEqual({
      database: { kind: "pglite", dataDir: path.join(sampleAppDir, "data", "pglite") },
      port: 8000,
      logLevel: "info",
    });
    expect(DEFAULT_PGLITE_DIR).toBe(path.join(sampleAppDir, "data", "pglite"));
  });

  it("treats empty values (as in a copied .env) as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", APP_PORT: " ", LOG_LEVEL: "" }, "/srv")).toEqual(loadConfig({}, "/srv"));
  });

  it("accepts explicit values", () => {
    expect(loadConfig({ DATABASE_URL: "pglite:./data/db", APP_PORT: "9001", LOG_LEVEL: "WARN" }, "/srv")).toEqual({
      database: { kind: "pglite", dataDir: "/srv/data/db" },
      port: 9001,
      logLevel: "warn",
    });
    for (const url of [
      "postgresql://app:secret@db:5432/meal",
      "postgres://localhost/meal",
      "postgresql:///meal?host=/var/run/postgresql",
    ]) {
      expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: "postgresql", url });
    }
  });

  it.each([
    ["APP_PORT", "abc"],
    ["APP_PORT", "70000"],
    ["APP_PORT", "-1"],
    ["APP_PORT", "80.5"],
    ["LOG_LEVEL", "verbose"],
    ["DATABASE_URL", "mysql://root@localhost/db"],
    ["DATABASE_URL", "pglite:"],
    ["DATABASE_URL", "postgresql://"],
    ["DATABASE_URL", "./data/pglite"],
  ])("rejects %s=%s with a message naming the variable", (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(name);
  });

  it("reports every bad variable at once and never echoes a password", () => {
    const problems = problemsOf({ DATABASE_URL: "mysql://root:hunter2@db/x", APP_PORT: "http", LOG_LEVEL: "loud" });
    expect(problems.map((p) => p.split(" ")[0])).toEqual(["DATABASE_URL", "APP_PORT", "LOG_LEVEL"]);
    expect(problems.join("\n")).not.toContain("hunter2");
    expect(problems[2]).toContain("debug, info, warn, error");
  });
});

describe("main.ts with a bad configuration", () => {
  it("exits 1 before opening anything, with a JSON log line naming the variable", () => {
    const run = spawnSync(process.execPath, ["--import", TSX_LOADER, MAIN_TS], {
      env: { ...process.env, APP_PORT: "eighty", LOG_LEVEL: "info", DATABASE_URL: "" },
      encoding: "utf8",
      timeout: 90_000, // a limit, not a measure: tsx child processes started under load took over 25 s (persistence.test.ts)
    });
    expect(run.status).toBe(1);
    const line = JSON.parse(run.stderr.trim().split("\n").at(-1) ?? "{}") as { level?: string; msg?: string };
    expect(line.level).toBe("error");
    expect(line.msg).toContain('APP_PORT must be an integer from 0 to 65535; got "eighty"');
  });
});
