"use client";

import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Pagination } from "@/components/ui/pagination";
import { ToggleChip } from "@/components/ui/toggle-chip";
import { useEvalUrl } from "../context";
import { plural } from "../format";
import { CompareQuestions } from "./compare-questions";
import { CompareSummary } from "./compare-summary";
import { PairedCard } from "./paired-card";
import { COMPARE_PAGE, useCompareTwo, useOutcomeChoices } from "./use-compare";

/**
 * Two runs question by question (matched by sample key): deltas, warnings, the paired table, regressions
 * highlighted, both answers side by side. The questions are paged and filtered by the server (outcome, text); the
 * outcome, the page and the opened question are in the URL, so a view of a 10,000-question comparison can be shared.
 */
export function CompareTwoView() {
  const [url, go] = useEvalUrl();
  const cmp = useCompareTwo();
  const outcomes = useOutcomeChoices();
  const filter = (patch: Parameters<typeof go>[0]) =>
    go({ page: undefined, open: undefined, ...patch }, { replace: true });
  if (!url.a || !url.b)
    return (
      <EmptyState title="Choose two runs">
        Pick the run before a change as A and the run after it (for example its re-run) as B. Questions are matched by
        their key. To follow up to eight runs of one set version, select them in the runs list.
      </EmptyState>
    );
  if (cmp.error) return <ErrorState error={cmp.error} onRetry={() => cmp.refetch()} />;
  const c = cmp.data;
  if (!c) return <LoadingRows rows={6} label="Comparing" />;
  const rows = c.questions;
  const page = url.page ?? 1;
  const searchedTotal = Object.values(c.page.matching).reduce((x, y) => x + y, 0);
  return (
    <>
      <CompareSummary c={c} />
      <PairedCard c={c} />
      {url.q && (
        <p className="text-sm text-slate-600">
          Showing the questions matching “{url.q}”.{" "}
          <button
            type="button"
            className="font-medium text-brand-700 hover:underline"
            onClick={() => filter({ q: undefined })}
          >
            Show all
          </button>
        </p>
      )}
      <div className="flex flex-wrap gap-2" role="group" aria-label="Show questions">
        <ToggleChip pressed={!url.outcome} onClick={() => filter({ outcome: undefined })}>
          All ({searchedTotal.toLocaleString("en-US")})
        </ToggleChip>
        {outcomes
          .filter((o) => c.page.matching[o.id] > 0 || url.outcome === o.id)
          .map((o) => (
            <ToggleChip key={o.id} pressed={url.outcome === o.id} onClick={() => filter({ outcome: o.id })}>
              {`${o.label} (${c.page.matching[o.id].toLocaleString("en-US")})`}
            </ToggleChip>
          ))}
      </div>
      {rows.length === 0 ? (
        c.page.total > 0 ? (
          <EmptyState
            title="Past the last page"
            action={
              <Button variant="secondary" onClick={() => filter({})}>
                First page
              </Button>
            }
          >
            {plural(c.page.total, "question")} match; this page is after the last one.
          </EmptyState>
        ) : (
          <EmptyState title="No question here">
            {url.outcome ? "No question of the comparison has this outcome" : "No question matches"}
            {url.q ? ` with “${url.q}”` : ""}.
          </EmptyState>
        )
      ) : (
        <CompareQuestions c={c} outcomes={outcomes} />
      )}
      <Pagination
        label="Question pages"
        from={c.page.offset + 1}
        to={c.page.offset + rows.length}
        total={c.page.total}
        hasPrev={page > 1}
        hasNext={c.page.offset + rows.length < c.page.total}
        onPrev={() => go({ page: page - 1 > 1 ? page - 1 : undefined, open: undefined }, { replace: true })}
        onNext={() => go({ page: page + 1, open: undefined }, { replace: true })}
      />
    </>
  );
}
