// A small ordered list of migration steps recorded in `schema_migrations`. Each step runs at most
// once per database, so restarts and repeated `migrate` runs change nothing, and a seeded menu the
// owner has since edited is never re-seeded over.
import type { Database, Queryable } from "./db.ts";
import { SEED_SCENES, TIMES_OF_DAY } from "./seed-data.ts";

export interface MigrationStep {
  id: string;
  kind: "schema" | "seed";
  /** Applies the step inside the migration transaction; returns a one-line summary of what it did. */
  apply(tx: Queryable): Promise<string>;
}

export interface AppliedStep {
  id: string;
  kind: MigrationStep["kind"];
  summary: string;
}

export interface MigrationResult {
  applied: AppliedStep[];
  alreadyApplied: string[];
}

export interface MigrationStatus {
  applied: Array<AppliedStep & { appliedAt: string }>;
  pending: string[];
}

const timeOfDayList = TIMES_OF_DAY.map((t) => `'${t}'`).join(", ");

export const MIGRATIONS: MigrationStep[] = [
  {
    id: "0001_create_menu_tables",
    kind: "schema",
    async apply(tx) {
      await tx.query(`CREATE TABLE meal_scenes (
        id text PRIMARY KEY,
        name text NOT NULL,
        name_zh text NOT NULL,
        description text NOT NULL,
        time_of_day text NOT NULL CHECK (time_of_day IN (${timeOfDayList})),
        sort_order integer NOT NULL DEFAULT 0
      )`);
      await tx.query(`CREATE TABLE dishes (
        id text PRIMARY KEY,
        scene_id text NOT NULL REFERENCES meal_scenes (id) ON DELETE CASCADE,
        name text NOT NULL,
        name_zh text NOT NULL,
        price numeric(10, 2) NOT NULL CHECK (price > 0),
        currency text NOT NULL DEFAULT 'CNY' CHECK (currency = 'CNY'),
        tags text[] NOT NULL DEFAULT '{}',
        spicy boolean NOT NULL DEFAULT false,
        vegetarian boolean NOT NULL DEFAULT false,
        calories integer NOT NULL CHECK (calories >= 0),
        sort_order integer NOT NULL DEFAULT 0
      )`);
      await tx.query("CREATE INDEX dishes_scene_id_idx ON dishes (scene_id, sort_order)");
      return "created tables meal_scenes, dishes";
    },
  },
  {
    id: "0002_seed_menu",
    kind: "seed",
    async apply(tx) {
      let scenes = 0;
      let dishes = 0;
      for (const [sceneIndex, scene] of SEED_SCENES.entries()) {
        // ON CONFLICT keeps the step safe even if rows were loaded by hand before it ran.
        const inserted = await tx.query(
          `INSERT INTO meal_scenes (id, name, name_zh, description, time_of_day, sort_order)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING RETURNING id`,
          [scene.id, scene.name, scene.nameZh, scene.description, scene.timeOfDay, sceneIndex],
        );
        scenes += inserted.length;
        for (const [dishIndex, d] of scene.dishes.entries()) {
          const row = await tx.query(
            `INSERT INTO dishes (id, scene_id, name, name_zh, price, tags, spicy, vegetarian, calories, sort_order)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING RETURNING id`,
            [d.id, scene.id, d.name, d.nameZh, d.price, d.tags, d.spicy, d.vegetarian, d.calories, dishIndex],
          );
          dishes += row.length;
        }
      }
      return `inserted ${scenes} scenes, ${dishes} dishes`;
    },
  },
];

const CREATE_LEDGER = `CREATE TABLE IF NOT EXISTS schema_migrations (
  id text PRIMARY KEY,
  kind text NOT NULL,
  summary text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

// Arbitrary constant: serialises concurrent migrators (two replicas starting at once on PostgreSQL).
const MIGRATION_LOCK_KEY = 727_100_001;

/** Applies every pending step in one transaction: all of them or none. */
export async function runMigrations(db: Database, steps: MigrationStep[] = MIGRATIONS): Promise<MigrationResult> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.query(CREATE_LEDGER);
    const done = new Set((await tx.query<{ id: string }>("SELECT id FROM schema_migrations")).map((r) => r.id));
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const step of steps) {
      if (done.has(step.id)) {
        result.alreadyApplied.push(step.id);
        continue;
      }
      const summary = await step.apply(tx);
      await tx.query("INSERT INTO schema_migrations (id, kind, summary) VALUES ($1, $2, $3)", [
        step.id,
        step.kind,
        summary,
      ]);
      result.applied.push({ id: step.id, kind: step.kind, summary });
    }
    return result;
  });
}

/** Read-only view of what has been applied and what is pending (for `migrate --status`). */
export async function migrationStatus(db: Database, steps: MigrationStep[] = MIGRATIONS): Promise<MigrationStatus> {
  const [ledger] = await db.query<{ exists: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS exists");
  const rows = ledger?.exists
    ? await db.query<{ id: string; kind: MigrationStep["kind"]; summary: string; applied_at: Date | string }>(
        "SELECT id, kind, summary, applied_at FROM schema_migrations ORDER BY id",
      )
    : [];
  const applied = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    summary: r.summary,
    appliedAt: new Date(r.applied_at).toISOString(),
  }));
  const appliedIds = new Set(applied.map((a) => a.id));
  return { applied, pending: steps.filter((s) => !appliedIds.has(s.id)).map((s) => s.id) };
}
