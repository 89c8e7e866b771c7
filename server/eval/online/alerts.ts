import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { type Principal, actorLabels, actorRef } from "../../auth/service";
import { env } from "../../core/env";
import { errors, parseInput } from "../../core/errors";
import { requireAgent } from "../../agents/service";
import { deliveriesIn, sendDeliveries } from "../../webhooks/emit";
import { evalError } from "../errors";
import { type LeadShare, leadsAmongLast, leadsSince } from "./leads";
import {
  ALERT_LIMITS,
  type AlertFiguresOut,
  AlertRuleInput,
  AlertRulePatch,
  type AlertsQuery,
  type LeadSignal,
} from "./schemas";
import { watchChanged } from "./watch-state";

/**
 * Alert rules on an agent's online answers (issue 25), evaluated by the online worker (./worker.ts) after every batch
 * of online answers it records and every judgment, so within seconds of the answer that crosses a rule, never on the
 * chat's path.
 *
 * - `share`: more than `percent` % of the agent's last `lastN` finished online answers are leads (with `signal`, when
 *   the rule names one); it waits for `lastN` answers. `count`: at least `minCount` leads among the online answers of
 *   the last `windowMinutes`. Leads are decided by the leads page's rules (./leads.ts, the default low score 2),
 *   dismissed ones included: a dismissal is triage after the fact.
 * - Firing: one statement claims the rule (its `lastFiredAt` is older than its cool-down, or unset) and, in the same
 *   transaction, the alert row and the `alert.fired` deliveries are written: two instances or two jobs racing fire
 *   once, and the event is sent exactly when the alert exists. A rule does not fire again for `cooldownMinutes`.
 * - An alert stays open (the online loop tab's banner) until a person acknowledges it; acknowledging does not touch the
 *   cool-down.
 */
type RuleRow = Awaited<ReturnType<Db["onlineAlertRule"]["findFirstOrThrow"]>>;
type Figures = z.output<typeof AlertFiguresOut>;

export function ruleOut(r: RuleRow) {
  return {
    id: r.id,
    agentId: r.agentId,
    name: r.name,
    kind: r.kind as "share" | "count",
    signal: (r.signal as LeadSignal | null) ?? null,
    lastN: r.lastN,
    percent: r.percent,
    minCount: r.minCount,
    windowMinutes: r.windowMinutes,
    cooldownMinutes: r.cooldownMinutes,
    enabled: r.enabled,
    lastFiredAt: r.lastFiredAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The leads page of the agent filtered by the signal: absolute when NEXTAUTH_URL says where the app is. */
export function leadsUrl(agentId: string, signal: string | null): string {
  const params = new URLSearchParams({ agent: agentId, ...(signal ? { signal } : {}) });
  const path = `/eval?${params.toString()}#leads`;
  const base = env().NEXTAUTH_URL;
  return base ? new URL(path, base).toString() : path;
}

export async function listAlertRules(db: Db, agentId: string) {
  await requireAgent(db, agentId);
  const rows = await db.onlineAlertRule.findMany({ where: { agentId }, orderBy: { createdAt: "asc" } });
  return { items: rows.map(ruleOut) };
}

export async function createAlertRule(db: Db, input: z.input<typeof AlertRuleInput>, actor: Principal | null) {
  const body = parseInput(AlertRuleInput, input);
  await requireAgent(db, body.agentId);
  if ((await db.onlineAlertRule.count({ where: { agentId: body.agentId } })) >= ALERT_LIMITS.maxRules)
    throw evalError("EVAL_LIMIT_EXCEEDED", `An agent has at most ${ALERT_LIMITS.maxRules} alert rules`, [
      { limit: "maxAlertRules", value: ALERT_LIMITS.maxRules },
    ]);
  const share = body.kind === "share";
  const row = await db.onlineAlertRule.create({
    data: {
      agentId: body.agentId,
      name: body.name,
      kind: body.kind,
      signal: body.signal ?? null,
      lastN: share ? (body.lastN ?? null) : null,
      percent: share ? (body.percent ?? null) : null,
      minCount: share ? null : (body.minCount ?? null),
      windowMinutes: share ? null : (body.windowMinutes ?? null),
      cooldownMinutes: body.cooldownMinutes,
      enabled: body.enabled,
      createdById: actorRef(actor),
    },
  });
  watchChanged(body.agentId);
  return ruleOut(row);
}

async function ruleOrThrow(db: Db, id: string) {
  const row = await db.onlineAlertRule.findUnique({ where: { id } });
  if (!row) throw errors.notFound(`Alert rule ${id}`);
  return row;
}

export async function updateAlertRule(db: Db, id: string, input: z.input<typeof AlertRulePatch>) {
  const patch = parseInput(AlertRulePatch, input);
  const row = await ruleOrThrow(db, id);
  const share = row.kind === "share";
  const wrong = share
    ? (["minCount", "windowMinutes"] as const).find((f) => patch[f] !== undefined)
    : (["lastN", "percent"] as const).find((f) => patch[f] !== undefined);
  if (wrong)
    throw errors.badRequest("REQUEST_INVALID", `${wrong} is not a figure of a ${row.kind} rule`, [
      { path: `/${wrong}`, message: `a ${row.kind} rule has no ${wrong}`, code: "custom" },
    ]);
  const data: Prisma.OnlineAlertRuleUpdateInput = {};
  for (const k of ["name", "lastN", "percent", "minCount", "windowMinutes", "cooldownMinutes", "enabled"] as const)
    if (patch[k] !== undefined) (data as Record<string, unknown>)[k] = patch[k];
  if (patch.signal !== undefined) data.signal = patch.signal;
  const updated = await db.onlineAlertRule.update({ where: { id }, data });
  watchChanged(row.agentId);
  return ruleOut(updated);
}

export async function deleteAlertRule(db: Db, id: string) {
  const row = await ruleOrThrow(db, id);
  await db.onlineAlertRule.delete({ where: { id } });
  watchChanged(row.agentId);
  return { deleted: true as const };
}

type AlertRow = Awaited<ReturnType<Db["onlineAlert"]["findFirstOrThrow"]>> & { rule: { name: string } };

function alertOut(a: AlertRow, labels: Map<string, string>) {
  const figures = a.figures as Figures;
  return {
    id: a.id,
    ruleId: a.ruleId,
    ruleName: a.rule.name,
    agentId: a.agentId,
    figures,
    firedAt: a.firedAt,
    acknowledgedAt: a.acknowledgedAt,
    acknowledgedBy: a.acknowledgedById ? (labels.get(a.acknowledgedById) ?? a.acknowledgedById) : null,
    leadsUrl: leadsUrl(a.agentId, figures.signal),
  };
}

export async function listAlerts(db: Db, q: z.output<typeof AlertsQuery>) {
  await requireAgent(db, q.agentId);
  const rows = await db.onlineAlert.findMany({
    where: {
      agentId: q.agentId,
      ...(q.open === undefined ? {} : { acknowledgedAt: q.open ? null : { not: null } }),
    },
    orderBy: { firedAt: "desc" },
    take: q.limit,
    include: { rule: { select: { name: true } } },
  });
  const labels = await actorLabels(
    db,
    rows.map((r) => r.acknowledgedById),
  );
  return { items: rows.map((r) => alertOut(r, labels)) };
}

/** Acknowledges an open alert (idempotent: an acknowledged one keeps who did it first). */
export async function acknowledgeAlert(db: Db, id: string, actor: Principal | null) {
  const found = await db.onlineAlert.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw errors.notFound(`Alert ${id}`);
  await db.onlineAlert.updateMany({
    where: { id, acknowledgedAt: null },
    data: { acknowledgedAt: new Date(), acknowledgedById: actorRef(actor) },
  });
  const row = await db.onlineAlert.findUniqueOrThrow({ where: { id }, include: { rule: { select: { name: true } } } });
  return alertOut(row, await actorLabels(db, [row.acknowledgedById]));
}

/** A rule's figures now, and whether they cross it. */
export async function ruleFigures(db: Db, r: RuleRow): Promise<{ crossed: boolean; figures: Figures }> {
  const signal = (r.signal as LeadSignal | null) ?? undefined;
  const share = r.kind === "share";
  const found: LeadShare = share
    ? await leadsAmongLast(db, r.agentId, r.lastN ?? 100, signal)
    : await leadsSince(db, r.agentId, new Date(Date.now() - (r.windowMinutes ?? 60) * 60_000), signal);
  const percent = found.answers ? Math.round((found.leads.length / found.answers) * 10_000) / 100 : 0;
  const crossed = share
    ? found.answers >= (r.lastN ?? 100) && percent > (r.percent ?? 100)
    : found.leads.length >= (r.minCount ?? 1);
  return {
    crossed,
    figures: {
      kind: r.kind as "share" | "count",
      signal: signal ?? null,
      answers: found.answers,
      leads: found.leads.length,
      percent: share ? percent : null,
      threshold: share ? (r.percent ?? 0) : (r.minCount ?? 0),
      windowMinutes: share ? null : r.windowMinutes,
      lastN: share ? r.lastN : null,
      from: found.from?.toISOString() ?? null,
      to: found.to?.toISOString() ?? null,
      traceIds: found.leads.slice(0, 20),
    },
  };
}

/**
 * Evaluates the agent's enabled rules now and fires those that are crossed and out of their cool-down (see the module
 * comment). Answers the alerts fired.
 */
export async function evaluateAlerts(db: Db, agentId: string): Promise<string[]> {
  const rules = await db.onlineAlertRule.findMany({ where: { agentId, enabled: true } });
  const fired: string[] = [];
  for (const r of rules) {
    if (r.lastFiredAt && Date.now() - r.lastFiredAt.getTime() < r.cooldownMinutes * 60_000) continue;
    const { crossed, figures } = await ruleFigures(db, r);
    if (!crossed) continue;
    const agent = await db.agent.findUnique({ where: { id: agentId }, select: { name: true } });
    const made = await db.$transaction(async (tx) => {
      const now = new Date();
      const claimed = await tx.$queryRaw<Array<{ id: string }>>`
        UPDATE "OnlineAlertRule" SET "lastFiredAt" = ${now}::timestamp
        WHERE "id" = ${r.id} AND "enabled"
          AND ("lastFiredAt" IS NULL OR "lastFiredAt" <= ${now}::timestamp - make_interval(mins => "cooldownMinutes"))
        RETURNING "id"`;
      if (!claimed.length) return null;
      const alert = await tx.onlineAlert.create({
        data: { ruleId: r.id, agentId, figures: figures as unknown as Prisma.InputJsonValue },
      });
      const deliveries = await deliveriesIn(tx, "alert.fired", [
        {
          alertId: alert.id,
          ruleId: r.id,
          ruleName: r.name,
          agentId,
          agentName: agent?.name ?? null,
          firedAt: alert.firedAt.toISOString(),
          figures,
          cooldownMinutes: r.cooldownMinutes,
          leadsUrl: leadsUrl(agentId, figures.signal),
        },
      ]);
      return { alert, deliveries };
    });
    if (!made) continue;
    await sendDeliveries(made.deliveries);
    fired.push(made.alert.id);
  }
  return fired;
}
