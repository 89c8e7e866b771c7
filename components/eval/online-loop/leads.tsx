"use client";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { FilterField, FilterSelect, inputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Pagination } from "@/components/ui/pagination";
import { LeadCard } from "./lead-card";
import { LeadsPerDay } from "./leads-per-day";
import { LEADS_PAGE, type useLeads } from "./use-leads";

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
          Answers of {agentName} (chat and API callers) that users scored {maxScore} or lower, that the guardrail rules
          flag (an execution error, an empty item list from a live query, no query at all), or that the online judge
          judged fail or could not judge (unknown). Add the ones worth keeping to a regression pool (never a golden
          set); the board above takes them on: confirm, expectations, freeze, run, Bad Case, re-run.
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
