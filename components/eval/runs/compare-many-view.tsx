"use client";

import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Pagination } from "@/components/ui/pagination";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { ToggleChip } from "@/components/ui/toggle-chip";
import { useEvalUrl } from "../context";
import { ago, pct, pctRange, when, words } from "../format";
import type { EvalCompareMany } from "../types";
import { RunGrid } from "./run-grid";
import { useCompareMany } from "./use-compare";

/**
 * Up to eight runs of one set version: each run's human-confirmed pass rate with its 95 % interval and n, then the
 * question x run grid with its filters (changed only, failing in the latest run), paged by the server. The runs, the
 * filters and the page are in the URL.
 */
export function CompareManyView() {
  const [url, go] = useEvalUrl();
  const cmp = useCompareMany();
  if (cmp.error) return <ErrorState error={cmp.error} onRetry={() => cmp.refetch()} />;
  const c = cmp.data;
  if (!c) return <LoadingRows rows={6} label="Comparing the runs" />;
  const filter = (patch: Parameters<typeof go>[0]) => go({ page: undefined, ...patch }, { replace: true });
  const page = url.page ?? 1;
  const latest = c.runs.at(-1)!;
  return (
    <>
      <RunRates c={c} />
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Filter the questions">
        <ToggleChip
          pressed={!url.changed && !url.failing}
          onClick={() => filter({ changed: undefined, failing: undefined })}
        >
          All ({c.counts.questions.toLocaleString("en-US")})
        </ToggleChip>
        <ToggleChip pressed={!!url.changed} onClick={() => filter({ changed: url.changed ? undefined : "1" })}>
          Changed only ({c.counts.changed.toLocaleString("en-US")})
        </ToggleChip>
        <ToggleChip pressed={!!url.failing} onClick={() => filter({ failing: url.failing ? undefined : "1" })}>
          Failing in the latest, {latest.shortId} ({c.counts.failingLatest.toLocaleString("en-US")})
        </ToggleChip>
        <span className="text-xs text-slate-600" aria-live="polite">
          {cmp.fetching ? "Updating…" : `${c.page.total.toLocaleString("en-US")} shown by the filters`}
        </span>
      </div>
      {c.questions.length === 0 ? (
        <EmptyState title="No question here">
          {c.page.total > 0
            ? "This page is after the last one."
            : url.changed && url.failing
              ? "No question both changed and fails in the latest run."
              : url.changed
                ? "No question's verdict changes across these runs (runs without a verdict do not count)."
                : url.failing
                  ? `No question fails in ${latest.shortId}${latest.note ? ` (${latest.note})` : ""}.`
                  : "These runs have no questions."}
        </EmptyState>
      ) : (
        <RunGrid c={c} />
      )}
      <Pagination
        label="Question pages"
        from={c.page.offset + 1}
        to={c.page.offset + c.questions.length}
        total={c.page.total}
        hasPrev={page > 1}
        hasNext={c.page.offset + c.questions.length < c.page.total}
        onPrev={() => go({ page: page - 1 > 1 ? page - 1 : undefined }, { replace: true })}
        onNext={() => go({ page: page + 1 }, { replace: true })}
      />
    </>
  );
}

/** Each run's human-confirmed pass rate over its judged questions, its 95 % interval and n (or "no verdicts yet"). */
function RunRates({ c }: { c: EvalCompareMany }) {
  return (
    <Card
      title={`${c.runs.length} runs of ${c.set.name} v${c.set.version}`}
      description="Oldest first. Human-confirmed pass rate over the judged questions, with its 95 % Wilson interval; unjudged questions are not counted."
      bodyClassName="p-0"
    >
      <Table caption="Runs compared">
        <THead>
          <tr>
            <Th>Run</Th>
            <Th>Agent</Th>
            <Th>Tier</Th>
            <Th className="text-right">Pass rate</Th>
            <Th>95 % interval</Th>
            <Th className="text-right">n</Th>
            <Th>Created</Th>
          </tr>
        </THead>
        <tbody>
          {c.runs.map((r) => (
            <Tr key={r.id}>
              <Td className="font-mono font-semibold">{r.shortId}</Td>
              <Td>v{r.workflowVersion}</Td>
              <Td>{words(r.tier)}</Td>
              {r.note ? (
                <Td colSpan={3} className="text-slate-600">
                  {r.note}
                </Td>
              ) : (
                <>
                  <Td className="text-right font-medium tabular-nums">{pct(r.human.rate)}</Td>
                  <Td className="tabular-nums text-slate-700">{pctRange(r.human.interval)}</Td>
                  <Td className="whitespace-nowrap text-right tabular-nums">
                    {r.human.n} / {r.questions}
                  </Td>
                </>
              )}
              <Td className="whitespace-nowrap text-slate-600" title={when(r.createdAt)}>
                {ago(r.createdAt)}
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}
