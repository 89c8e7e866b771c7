/**
 * Reading a run's assignment (issue 23) for the page that sets it: the split as stored on the run and the people it
 * may name. Setting it is `assignItems` (reservations.ts).
 */
import type { Db } from "../../db/client";
import { PERMISSIONS } from "../../auth/roles";
import { resolveRun } from "./run-rows";

const REVIEWER_ROLES = [...PERMISSIONS["eval.annotate"]];

type Stored = { userIds?: unknown; seed?: unknown; at?: unknown } | null;

export async function getAssignment(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  const [row, users] = await Promise.all([
    db.evalRun.findUniqueOrThrow({ where: { id: run.id }, select: { assignment: true } }),
    db.user.findMany({
      where: { disabledAt: null, role: { in: REVIEWER_ROLES } },
      select: { id: true, name: true, email: true, role: true },
      orderBy: [{ name: "asc" }, { email: "asc" }],
    }),
  ]);
  const stored = row.assignment as Stored;
  const userIds = Array.isArray(stored?.userIds)
    ? stored.userIds.filter((u): u is string => typeof u === "string")
    : [];
  return {
    runId: run.id,
    userIds,
    seed: typeof stored?.seed === "number" ? stored.seed : null,
    at: typeof stored?.at === "string" ? stored.at : null,
    candidates: users,
  };
}
