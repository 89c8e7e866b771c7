// Static checks of the packaging files, so an edit that would leak a secret into the image,
// run as root, or let the standalone package drift from the repository's versions fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SAMPLE_APP_DIR } from "../scripts/paths.ts";

const read = (file: string) => readFileSync(path.join(SAMPLE_APP_DIR, file), "utf8");
const lines = (file: string) =>
  read(file)
    .split("\n")
    .map((l) => l.trim());
type PackageJson = {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");
  const instructions = dockerfile.split("\n").filter((l) => /^[A-Z]+\s/.test(l));

  it("is multi-stage and runs as a non-root user", () => {
    expect(instructions.filter((l) => l.startsWith("FROM ")).length).toBeGreaterThanOrEqual(2);
    const lastFrom = instructions.findLastIndex((l) => l.startsWith("FROM "));
    const user = instructions.findLastIndex((l) => l.startsWith("USER "));
    expect(user).toBeGreaterThan(lastFrom);
    expect(instructions[user]).not.toMatch(/USER\s+(root|0)\b/);
  });

  it("checks /health, exposes 8000 and declares the data volume", () => {
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/health/);
    expect(instructions).toContain("EXPOSE 8000");
    expect(dockerfile).toMatch(/VOLUME \["\/app\/data"\]/);
    expect(dockerfile).toMatch(/chown node:node \/app\/data/);
  });

  it("copies no env file and bakes no secret into a layer", () => {
    for (const line of instructions.filter((l) => /^(COPY|ADD) /.test(l))) expect(line).not.toMatch(/\.env|\s\.\s/);
    for (const line of instructions.filter((l) => /^(ENV|ARG) /.test(l)))
      expect(line).not.toMatch(/PASSWORD|SECRET|TOKEN|postgres(ql)?:\/\//i);
  });
});

describe("ignore files and the env example", () => {
  it(".dockerignore keeps .env, data and node_modules out of the build context", () => {
    expect(lines(".dockerignore")).toEqual(expect.arrayContaining([".env", "data/", "node_modules/"]));
  });

  it(".gitignore keeps .env and data out of the repository", () => {
    expect(lines(".gitignore")).toEqual(expect.arrayContaining([".env", "data/"]));
  });

  it(".env.example names the three variables of spec 2.6 and holds placeholders only", () => {
    const assignments = lines(".env.example").filter((l) => /^[A-Z_]+=/.test(l));
    expect(assignments.map((l) => l.split("=")[0])).toEqual(
      expect.arrayContaining(["DATABASE_URL", "APP_PORT", "LOG_LEVEL"]),
    );
    expect(assignments).toContain("DATABASE_URL=");
    expect(assignments.find((l) => l.startsWith("POSTGRES_PASSWORD="))).toMatch(/=replace-with-/);
  });
});

describe("compose.yaml", () => {
  const compose = read("compose.yaml");
  it("has the api service of spec 4.4: build context, port 8000, env file, host data folder", () => {
    expect(compose).toMatch(/^ {2}api:\n {4}build: \.$/m);
    expect(compose).toMatch(/^ {4}env_file: \.env$/m);
    expect(compose).toMatch(/- "\$\{MEAL_SCENES_HOST_PORT:-8000\}:8000"/);
    expect(compose).toMatch(/- \$\{MEAL_SCENES_DATA_DIR:-\.\/data\}:\/app\/data/);
  });
  it("has an optional PostgreSQL db service behind the postgres profile, with no password in the file", () => {
    expect(compose).toMatch(/^ {2}db:\n {4}profiles: \[postgres\]$/m);
    expect(compose).toMatch(/POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:-\}/);
  });
});

describe("package.json", () => {
  const own = JSON.parse(read("package.json")) as PackageJson;
  const root = JSON.parse(readFileSync(path.join(SAMPLE_APP_DIR, "..", "package.json"), "utf8")) as PackageJson;
  const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, Partial<PackageJson>> };

  it("is meal-scenes 1.0.0 with start and build scripts", () => {
    expect(own).toMatchObject({
      name: "meal-scenes",
      version: "1.0.0",
      scripts: { start: "node dist/main.js", build: expect.any(String) },
    });
  });

  it("pins every dependency to the version the repository root installs", () => {
    const rootLock = JSON.parse(
      readFileSync(path.join(SAMPLE_APP_DIR, "..", "package-lock.json"), "utf8"),
    ) as typeof lock;
    for (const [name, version] of Object.entries({ ...own.dependencies, ...own.devDependencies })) {
      expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(`${name}@${rootLock.packages[`node_modules/${name}`]?.version}`).toBe(`${name}@${version}`);
    }
    // Runtime dependencies are pinned identically in both package.json files.
    for (const [name, version] of Object.entries(own.dependencies))
      expect(`${name}@${root.dependencies[name]}`).toBe(`${name}@${version}`);
  });

  it("has a lockfile in step with package.json", () => {
    expect(lock.packages[""]?.dependencies).toEqual(own.dependencies);
    expect(lock.packages[""]?.devDependencies).toEqual(own.devDependencies);
    for (const [name, version] of Object.entries(own.dependencies))
      expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(version);
  });
});
