"use client";

import { type FormEvent, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Field, inputClass } from "@/components/ui/field";
import { deniedReason, useCaps } from "../context";
import { ago } from "../format";
import { useVocabulary } from "../hooks/use-vocabulary";
import type { AlertRule } from "../types";
import type { LeadSignal } from "../url-state";
import { useAlertRules } from "./use-alerts";

/** A rule in words, as people read it. */
function ruleText(r: AlertRule, signalLabel: (s: string | null, one: boolean) => string): string {
  return r.kind === "share"
    ? `More than ${r.percent}% of the last ${r.lastN} answers are ${signalLabel(r.signal, false)}`
    : `At least ${r.minCount} ${signalLabel(r.signal, r.minCount === 1)} within ${r.windowMinutes} min`;
}

/**
 * The agent's alert rules: each in words with its cool-down and when it last fired, on/off and delete; and a form to
 * add one (a share of leads among the last N answers, or at least K leads within a window; optionally of one signal).
 * A rule that fires sends the webhook event alert.fired and shows the banner above until acknowledged.
 */
export function AlertRulesCard({ agentId }: { agentId: string }) {
  const { rules, create, update, remove } = useAlertRules(agentId);
  const { caps, role } = useCaps();
  const signals = useVocabulary().data?.leadSignals ?? [];
  const signalLabel = (s: string | null, one: boolean) =>
    `${one ? "lead" : "leads"}${s ? ` "${signals.find((x) => x.id === s)?.label ?? s}"` : ""}`;
  const denied = caps.manage ? undefined : deniedReason(role, "manage");
  const items = rules.data?.items ?? [];
  return (
    <Card
      title="Alerts"
      description="Rules checked within seconds of each online answer; a rule that fires sends alert.fired and shows a banner until acknowledged."
    >
      {rules.error ? (
        <ErrorState error={rules.error} onRetry={() => rules.refetch()} />
      ) : rules.isLoading ? (
        <LoadingRows rows={2} label="Loading the alert rules" />
      ) : items.length === 0 ? (
        <EmptyState title="No alert rule yet">Add one below to hear about a bad stretch of answers.</EmptyState>
      ) : (
        <ul className="mb-4 divide-y divide-slate-100" aria-label="Alert rules">
          {items.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-2 py-2 text-sm">
              <div className="min-w-0 flex-1">
                <p className="font-medium text-slate-900">
                  {r.name} {!r.enabled && <Badge tone="neutral">off</Badge>}
                </p>
                <p className="text-slate-600">
                  {ruleText(r, signalLabel)}; cool-down {r.cooldownMinutes} min;{" "}
                  {r.lastFiredAt ? `last fired ${ago(r.lastFiredAt)}` : "never fired"}
                </p>
              </div>
              <Button
                size="sm"
                variant="secondary"
                disabled={!caps.manage || update.isPending}
                title={denied}
                onClick={() => update.mutate({ id: r.id, body: { enabled: !r.enabled } })}
              >
                {r.enabled ? "Turn off" : "Turn on"}
              </Button>
              <Button
                size="sm"
                variant="danger"
                disabled={!caps.manage || remove.isPending}
                title={denied}
                aria-label={`Delete the alert rule ${r.name}`}
                onClick={() => remove.mutate({ id: r.id })}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
      <NewRuleForm agentId={agentId} create={create} signals={signals} denied={denied} />
    </Card>
  );
}

function NewRuleForm({
  agentId,
  create,
  signals,
  denied,
}: {
  agentId: string;
  create: ReturnType<typeof useAlertRules>["create"];
  signals: ReadonlyArray<{ id: LeadSignal; label: string; meaning: string }>;
  denied: string | undefined;
}) {
  const [name, setName] = useState("");
  const [kind, setKind] = useState<"share" | "count">("share");
  const [signal, setSignal] = useState("");
  const [lastN, setLastN] = useState("100");
  const [percent, setPercent] = useState("20");
  const [minCount, setMinCount] = useState("5");
  const [windowMinutes, setWindowMinutes] = useState("60");
  const [cooldown, setCooldown] = useState("60");
  const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));
  const figuresOk =
    kind === "share"
      ? num(lastN) >= 1 && num(lastN) <= 1000 && num(percent) >= 0 && num(percent) <= 100
      : num(minCount) >= 1 && num(windowMinutes) >= 1 && num(windowMinutes) <= 10_080;
  const valid = name.trim() !== "" && figuresOk && num(cooldown) >= 0;

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!valid) return;
    create.mutate(
      {
        agentId,
        name: name.trim(),
        kind,
        ...(signal ? { signal: signal as LeadSignal } : {}),
        ...(kind === "share"
          ? { lastN: num(lastN), percent: num(percent) }
          : { minCount: num(minCount), windowMinutes: num(windowMinutes) }),
        cooldownMinutes: num(cooldown),
      },
      { onSuccess: () => setName("") },
    );
  }

  return (
    <form onSubmit={onSubmit} aria-label="New alert rule" className="space-y-3 border-t border-slate-100 pt-3">
      <h4 className="text-sm font-semibold text-slate-800">New rule</h4>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name">
          <input className={inputClass} value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
        </Field>
        <Field label="Fires when">
          <select className={inputClass} value={kind} onChange={(e) => setKind(e.target.value as "share" | "count")}>
            <option value="share">a share of the last N answers are leads</option>
            <option value="count">at least K leads within a window</option>
          </select>
        </Field>
        {kind === "share" ? (
          <>
            <Field label="Last N answers">
              <input
                className={inputClass}
                type="number"
                min={1}
                max={1000}
                value={lastN}
                onChange={(e) => setLastN(e.target.value)}
              />
            </Field>
            <Field label="Above (%)">
              <input
                className={inputClass}
                type="number"
                min={0}
                max={100}
                step="any"
                value={percent}
                onChange={(e) => setPercent(e.target.value)}
              />
            </Field>
          </>
        ) : (
          <>
            <Field label="At least K leads">
              <input
                className={inputClass}
                type="number"
                min={1}
                value={minCount}
                onChange={(e) => setMinCount(e.target.value)}
              />
            </Field>
            <Field label="Within (minutes)">
              <input
                className={inputClass}
                type="number"
                min={1}
                max={10080}
                value={windowMinutes}
                onChange={(e) => setWindowMinutes(e.target.value)}
              />
            </Field>
          </>
        )}
        <Field label="Leads counted">
          <select className={inputClass} value={signal} onChange={(e) => setSignal(e.target.value)}>
            <option value="">Any lead</option>
            {signals.map((s) => (
              <option key={s.id} value={s.id} title={s.meaning}>
                {s.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Cool-down (minutes)" hint="It does not fire again for this long">
          <input
            className={inputClass}
            type="number"
            min={0}
            value={cooldown}
            onChange={(e) => setCooldown(e.target.value)}
          />
        </Field>
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={!valid || create.isPending || !!denied} title={denied}>
          {create.isPending ? "Adding…" : "Add alert rule"}
        </Button>
      </div>
    </form>
  );
}
