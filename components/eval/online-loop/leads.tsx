"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { FilterField, FilterSelect, inputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Pagination } from "@/components/ui/pagination";
import { useToast } from "@/components/ui/toast";
import { FlagBadge } from "../badges";
import { DailyBars } from "../charts";
import { deniedReason, useCaps, EvalLink } from "../context";
import { ago, when, words } from "../format";
import { PayloadView } from "../payload-view";
import { TraceButton } from "../trace-steps";
import type { Lead, LeadCounts } from "../types";
import { AddToPoolDialog, DismissDialog } from "../pool-dialogs";
import { LEADS_PAGE, type useLeads } from "./use-leads";
import { useMutationToast } from "../hooks/use-mutation-toast";

/** Leads from online traffic: filters in the URL, the counts per day of the range, a page of lead cards. */
export function LeadsSection({
  agentId,
  agentName,
  state,
}: {
  agentId: string;
  agentName: string;
  state: ReturnType<typeof useLeads>;
}) {
  const { url, maxScore, leads, counts, range, pages, setFilter, filtered, statuses, signals } = state;
  const data = leads.data;
  const rows = data?.items ?? [];
  return (
    <section id="leads" aria-labelledby="leads-title" className="space-y-4">
      <div>
        <h2 id="leads-title" className="text-lg font-semibold text-slate-900">
          Leads from online traffic
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Answers of {agentName} (chat and API callers) that users scored {maxScore} or lower, or that the guardrail
          rules flag (an execution error, an empty item list from a live query, no query at all). Add the ones worth
          keeping to a regression pool (never a golden set); the board above takes them on: confirm, expectations,
          freeze, run, Bad Case, re-run.
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Filters">
        <FilterSelect
          label="Status"
          className="w-36"
          value={url.status}
          onChange={(status) => setFilter({ status })}
          any="Any status"
          options={statuses.map((s) => ({ value: s.id, label: s.label, title: s.meaning }))}
        />
        <FilterSelect
          label="Signal"
          className="w-40"
          value={url.signal}
          onChange={(signal) => setFilter({ signal: signal as never })}
          any="Any signal"
          options={signals.map((s) => ({ value: s.id, label: s.label, title: s.meaning }))}
        />
        <FilterSelect
          label="Low score means"
          className="w-32"
          value={String(maxScore)}
          onChange={(v) => setFilter({ score: Number(v) === 2 ? undefined : Number(v) })}
          options={[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: `≤ ${n} of 5` }))}
        />
        {/* the range the chart and the list read: the URL's days, else the default last 30 days */}
        <FilterField label="From">
          <input
            type="date"
            className={cn(inputClass, "mt-1 w-40")}
            value={range.from}
            max={range.to}
            onChange={(e) => setFilter({ from: e.target.value || undefined })}
          />
        </FilterField>
        <FilterField label="To">
          <input
            type="date"
            className={cn(inputClass, "mt-1 w-40")}
            value={range.to}
            min={range.from}
            onChange={(e) => setFilter({ to: e.target.value || undefined })}
          />
        </FilterField>
        {filtered && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() =>
              setFilter({ status: undefined, signal: undefined, score: undefined, from: undefined, to: undefined })
            }
          >
            Clear filters
          </Button>
        )}
      </div>
      {state.countsError ? (
        <ErrorState error={state.countsError} title="The counts per day could not be loaded" />
      ) : (
        counts && <LeadsPerDay counts={counts} />
      )}
      {leads.error ? (
        <ErrorState error={leads.error} onRetry={() => leads.refetch()} />
      ) : leads.isLoading ? (
        <LoadingRows rows={4} label="Loading leads" />
      ) : rows.length === 0 ? (
        <EmptyState title={filtered ? "No lead matches" : "No lead yet"}>
          {filtered
            ? "Change the filters above."
            : `When users score answers of ${agentName} low (POST /api/traces/{id}/feedback) or an online run fails its query, the answer shows up here.`}
          {data?.nextCursor ? " Older traffic was not looked at yet: use Next." : ""}
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Leads">
          {rows.map((lead) => (
            <LeadCard key={lead.traceId} lead={lead} agentId={agentId} />
          ))}
        </ul>
      )}
      {(rows.length > 0 || pages.page > 0 || data?.nextCursor) && (
        <Pagination
          label="Lead pages"
          from={pages.page * LEADS_PAGE + 1}
          to={pages.page * LEADS_PAGE + rows.length}
          hasPrev={pages.page > 0}
          hasNext={!!data?.nextCursor}
          onPrev={pages.prev}
          onNext={() => pages.next(data?.nextCursor ?? undefined)}
        />
      )}
      {data && (
        <p className="text-xs text-slate-500">
          {data.scanned.toLocaleString("en-US")} online answers looked at for this page.
        </p>
      )}
    </section>
  );
}

/** Leads per day over the whole range, by status, as bars with their numbers (and the totals in words). */
function LeadsPerDay({ counts }: { counts: LeadCounts }) {
  const summary = `${counts.total} lead${counts.total === 1 ? "" : "s"} from ${counts.from} to ${counts.to}: ${counts.byStatus.new} new, ${counts.byStatus.in_pool} in a pool, ${counts.byStatus.dismissed} dismissed`;
  return (
    <Card
      title="Leads per day"
      description={
        <>
          {summary}.
          {!counts.complete && counts.coveredFrom
            ? ` The range holds more online answers than one count looks at: counted from ${when(counts.coveredFrom)} on.`
            : ""}
        </>
      }
    >
      {counts.total === 0 ? (
        <p className="text-sm text-slate-500">No lead in this range.</p>
      ) : (
        <DailyBars
          data={counts.days}
          series={[
            { key: "new", name: "New", tone: "fail" },
            { key: "in_pool", name: "In a pool", tone: "human" },
            { key: "dismissed", name: "Dismissed", tone: "machine" },
          ]}
          label={`Leads per day: ${counts.days
            .filter((d) => d.total)
            .map((d) => `${d.day} ${d.total}`)
            .join(", ")}`}
        />
      )}
    </Card>
  );
}

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

function LeadCard({ lead, agentId }: { lead: Lead; agentId: string }) {
  const { caps, role } = useCaps();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { fail } = useMutationToast();
  const [adding, setAdding] = useState(false);
  const [dismissing, setDismissing] = useState(false);
  const restore = useMutation(
    trpc.eval.online.restore.mutationOptions({
      onSuccess: async () => {
        toast({ tone: "success", title: "The lead is new again" });
        await qc.invalidateQueries({ queryKey: trpc.eval.online.pathKey() });
      },
      onError: fail("Not restored"),
    }),
  );
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
