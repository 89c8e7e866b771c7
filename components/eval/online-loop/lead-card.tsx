"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FlagBadge } from "../badges";
import { deniedReason, useCaps, EvalLink } from "../context";
import { ago, when, words } from "../format";
import { PayloadView } from "../payload-view";
import { TraceButton } from "../trace-steps";
import type { Lead } from "../types";
import { AddToPoolDialog, DismissDialog } from "../pool-dialogs";
import { useRestoreLead } from "./use-restore-lead";

function ScoreBadge({ score }: { score: number | null }) {
  if (score === null) return <Badge tone="neutral">no feedback</Badge>;
  return (
    <Badge
      tone={score <= 2 ? "danger" : score === 3 ? "warning" : "success"}
      title={`The user scored this answer ${score} of 5`}
    >
      {"★".repeat(score)}
      <span className="sr-only"> </span>
      {score}/5
    </Badge>
  );
}

/** One lead: score, flags, the conversation and the answer, and what a manager may do with it. */
export function LeadCard({ lead, agentId }: { lead: Lead; agentId: string }) {
  const { caps, role } = useCaps();
  const [adding, setAdding] = useState(false);
  const [dismissing, setDismissing] = useState(false);
  const restore = useRestoreLead();
  const manageTitle = caps.manage ? undefined : deniedReason(role, "manage");
  return (
    <li
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      aria-label={`Lead: ${lead.message.slice(0, 80)}`}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
        <span title={when(lead.startedAt)}>{ago(lead.startedAt)}</span>
        <ScoreBadge score={lead.score} />
        {lead.flags.map((f) => (
          <FlagBadge key={f.flag} flag={f.flag} meaning={f.message} />
        ))}
        {lead.judgment && lead.judgment.verdict !== "pass" && (
          <Badge
            tone={lead.judgment.verdict === "fail" ? "danger" : "warning"}
            title={`The online judge (${lead.judgment.judgedBy.label}) judged this answer ${lead.judgment.verdict}`}
          >
            Judge: {lead.judgment.verdict}
          </Badge>
        )}
        {lead.status === "in_pool" && <Badge tone="info">in pool</Badge>}
        {lead.status === "dismissed" && <Badge tone="neutral">dismissed</Badge>}
        <span className="ml-auto">
          <TraceButton traceId={lead.traceId} label="Open the trace" />
        </span>
      </div>
      <div className="mt-3 grid gap-3 lg:grid-cols-2">
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">User</h3>
          {lead.conversation.length > 0 && (
            <details className="mt-1 text-sm text-slate-600">
              <summary className="cursor-pointer">
                {lead.conversation.length} earlier turn{lead.conversation.length === 1 ? "" : "s"} in this conversation
              </summary>
              <ol className="mt-1 space-y-1 border-l-2 border-slate-200 pl-3">
                {lead.conversation.map((t, i) => (
                  <li key={i}>
                    <span className="font-medium">{t.role === "user" ? "User" : "Agent"}:</span> {t.content}
                  </li>
                ))}
              </ol>
            </details>
          )}
          <p className="mt-1 whitespace-pre-wrap font-medium text-slate-900">{lead.message}</p>
          {lead.comment && (
            <p className="mt-2 rounded-lg bg-amber-50 p-2 text-sm text-amber-900">
              <span className="font-medium">Feedback:</span> {lead.comment}
            </p>
          )}
        </div>
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Answer</h3>
          <p className="mt-1 line-clamp-6 whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-2 text-sm text-slate-800 [overflow-wrap:anywhere]">
            {lead.answer ||
              (lead.traceStatus === "succeeded" ? "(empty answer)" : `(the run ${words(lead.traceStatus)})`)}
          </p>
          {lead.judgment && (
            <p className="mt-2 rounded-lg bg-slate-50 p-2 text-sm text-slate-700">
              <span className="font-medium">
                {lead.judgment.judgedBy.label} says {lead.judgment.verdict}:
              </span>{" "}
              {lead.judgment.rationale}
              {lead.judgment.error && <span className="block text-xs text-slate-500">{lead.judgment.error}</span>}
            </p>
          )}
          {lead.payload != null && (
            <details className="mt-2 text-sm">
              <summary className="cursor-pointer text-xs font-medium text-slate-600">
                Structured answer (payload)
              </summary>
              <div className="mt-2">
                <PayloadView payload={lead.payload} compact />
              </div>
            </details>
          )}
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-end gap-2">
        {lead.status === "in_pool" && lead.pool && (
          <EvalLink
            to={{ tab: "sets", set: lead.pool.setId, v: lead.pool.version, q: lead.pool.key }}
            className="mr-auto text-sm font-medium text-brand-700 hover:underline"
          >
            {lead.pool.key} in {lead.pool.setName} v{lead.pool.version} ({lead.pool.versionStatus}) →
          </EvalLink>
        )}
        {lead.status === "dismissed" && lead.dismissal && (
          <p className="mr-auto text-sm text-slate-600">
            Dismissed by {lead.dismissal.byLabel ?? "someone"} {ago(lead.dismissal.at)}: {lead.dismissal.reason}
          </p>
        )}
        {lead.status === "dismissed" ? (
          <Button
            size="sm"
            variant="secondary"
            disabled={!caps.manage || restore.isPending}
            title={manageTitle}
            onClick={() => restore.mutate({ traceId: lead.traceId })}
          >
            Restore
          </Button>
        ) : lead.status === "new" ? (
          <>
            <Button
              size="sm"
              variant="secondary"
              disabled={!caps.manage}
              title={manageTitle}
              onClick={() => setDismissing(true)}
            >
              Dismiss…
            </Button>
            <Button size="sm" disabled={!caps.manage} title={manageTitle} onClick={() => setAdding(true)}>
              Add to regression pool…
            </Button>
          </>
        ) : null}
      </div>
      {adding && <AddToPoolDialog lead={lead} agentId={agentId} onClose={() => setAdding(false)} />}
      {dismissing && <DismissDialog lead={lead} onClose={() => setDismissing(false)} />}
    </li>
  );
}
