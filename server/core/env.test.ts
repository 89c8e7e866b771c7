import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";
import { parseDatabaseUrl } from "../db/url";

describe("environment validation", () => {
  it("accepts an empty environment (every variable has a default or is optional)", () => {
    const env = parseEnv({});
    expect(env.LOG_LEVEL).toBe("info");
  });

  it("names each bad variable in the message", () => {
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x/y" })).toThrow(/DATABASE_URL: .*unsupported scheme/);
    expect(() => parseEnv({ WEBHOOK_BASE_URL: "not a url" })).toThrow(/WEBHOOK_BASE_URL/);
    expect(() => parseEnv({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
    expect(() =>
      parseEnv({
        FLOWBENCH_INIT_ADMIN_EMAIL: "not-an-email",
        FLOWBENCH_INIT_ADMIN_PASSWORD: "password1",
        FLOWBENCH_INIT_API_TOKEN: "a".repeat(30),
      }),
    ).toThrow(/FLOWBENCH_INIT_ADMIN_EMAIL/);
  });

  it("requires the three headless-init variables together", () => {
    expect(() => parseEnv({ FLOWBENCH_INIT_ADMIN_EMAIL: "a@b.co" })).toThrow(/set all three or none/);
    expect(() => parseEnv({ FLOWBENCH_INIT_API_TOKEN: "short" })).toThrow(/FLOWBENCH_INIT_API_TOKEN/);
    const ok = parseEnv({
      FLOWBENCH_INIT_ADMIN_EMAIL: "a@b.co",
      FLOWBENCH_INIT_ADMIN_PASSWORD: "password1",
      FLOWBENCH_INIT_API_TOKEN: "t".repeat(32),
    });
    expect(ok.FLOWBENCH_INIT_ADMIN_EMAIL).toBe("a@b.co");
  });

  it("requires NEXTAUTH_SECRET when FLOWBENCH_REQUIRE_NEXTAUTH_SECRET=on (compose.yaml), also given empty", () => {
    expect(() => parseEnv({ FLOWBENCH_REQUIRE_NEXTAUTH_SECRET: "on" })).toThrow(
      /NEXTAUTH_SECRET: NEXTAUTH_SECRET must be set/,
    );
    expect(() => parseEnv({ FLOWBENCH_REQUIRE_NEXTAUTH_SECRET: "on", NEXTAUTH_SECRET: "" })).toThrow(
      /NEXTAUTH_SECRET must be set/,
    );
    expect(parseEnv({ FLOWBENCH_REQUIRE_NEXTAUTH_SECRET: "on", NEXTAUTH_SECRET: "s".repeat(32) }).NEXTAUTH_SECRET).toBe(
      "s".repeat(32),
    );
    expect(parseEnv({ NEXTAUTH_SECRET: "" }).FLOWBENCH_REQUIRE_NEXTAUTH_SECRET).toBe("off");
    expect(() => parseEnv({ FLOWBENCH_REQUIRE_NEXTAUTH_SECRET: "yes" })).toThrow(/FLOWBENCH_REQUIRE_NEXTAUTH_SECRET/);
  });

  it("treats empty strings (copied .env.example) as unset", () => {
    expect(parseEnv({ WEBHOOK_BASE_URL: "", PORT: "" }).WEBHOOK_BASE_URL).toBeUndefined();
  });
});

describe("DATABASE_URL", () => {
  it("defaults to the embedded database in ./data/pglite", () => {
    expect(parseDatabaseUrl(undefined, "/srv/app")).toEqual({
      kind: "pglite",
      dataDir: "/srv/app/data/pglite",
      display: "pglite:./data/pglite",
    });
  });
  it("supports in-memory PGlite and PostgreSQL servers, hiding passwords in the display form", () => {
    expect(parseDatabaseUrl("pglite:memory://").kind).toBe("pglite");
    const pg = parseDatabaseUrl("postgresql://u:secret@db:5432/flowbench");
    expect(pg).toMatchObject({ kind: "postgresql", url: "postgresql://u:secret@db:5432/flowbench" });
    expect(pg.display).not.toContain("secret");
  });
  it("rejects URLs without a database or with another scheme", () => {
    expect(() => parseDatabaseUrl("postgresql://localhost")).toThrow(/must name a database/);
    expect(() => parseDatabaseUrl("sqlite:./x.db")).toThrow(/unsupported scheme/);
    expect(() => parseDatabaseUrl("pglite:")).toThrow(/needs a folder/);
  });
});
