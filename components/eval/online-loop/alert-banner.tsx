"use client";

import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/feedback";
import { deniedReason, useCaps } from "../context";
import { ago, when } from "../format";
import { useVocabulary } from "../hooks/use-vocabulary";
import type { LeadSignal } from "../url-state";
import { useOpenAlerts } from "./use-alerts";

/**
 * The agent's open alerts, above everything on the online loop tab, until a person acknowledges each: what fired
 * (the rule, its figures in words) and when, "Show the leads" (filters the leads below by the rule's signal) and
 * Acknowledge (annotators, builders and admins).
 */
export function AlertBanner({ agentId, onShowLeads }: { agentId: string; onShowLeads: (signal?: LeadSignal) => void }) {
  const { alerts, acknowledge } = useOpenAlerts(agentId);
  const { caps, role } = useCaps();
  const signals = useVocabulary().data?.leadSignals ?? [];
  if (alerts.error) return <ErrorState error={alerts.error} title="The alerts could not be loaded" />;
  const items = alerts.data?.items ?? [];
  if (!items.length) return null;
  const signalName = (s: string | null) => (s ? (signals.find((x) => x.id === s)?.label ?? s) : null);
  return (
    <div className="space-y-2">
      {items.map((a) => {
        const f = a.figures;
        const what = signalName(f.signal);
        const leads = `${f.leads} lead${f.leads === 1 ? "" : "s"}${what ? ` (${what})` : ""}`;
        const figures =
          f.kind === "share"
            ? `${leads} among the last ${f.answers} online answers: ${f.percent}% (above ${f.threshold}%)`
            : `${leads} in the last ${f.windowMinutes} min (at least ${f.threshold})`;
        return (
          <div
            key={a.id}
            role="alert"
            aria-label={`Alert: ${a.ruleName}`}
            className="flex flex-wrap items-center gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
          >
            <div className="min-w-0 flex-1">
              <p className="font-semibold">Alert: {a.ruleName}</p>
              <p className="mt-0.5">
                {figures}. Fired <span title={when(a.firedAt)}>{ago(a.firedAt)}</span>.
              </p>
            </div>
            <Button size="sm" variant="secondary" onClick={() => onShowLeads(f.signal ?? undefined)}>
              Show the leads
            </Button>
            <Button
              size="sm"
              variant="dangerSolid"
              disabled={!caps.annotate || acknowledge.isPending}
              title={caps.annotate ? undefined : deniedReason(role, "annotate")}
              onClick={() => acknowledge.mutate({ id: a.id })}
            >
              Acknowledge
            </Button>
          </div>
        );
      })}
    </div>
  );
}
