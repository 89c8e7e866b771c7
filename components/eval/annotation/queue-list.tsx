"use client";

import type { RefObject } from "react";
import { Button } from "@/components/ui/button";
import { denseInputClass } from "@/components/ui/field";
import { EmptyState, LoadingRows } from "@/components/ui/feedback";
import { SearchInput } from "@/components/ui/search-input";
import { ToggleChip } from "@/components/ui/toggle-chip";
import { useEvalUrl, EvalLink } from "../context";
import { VerdictBadge } from "../badges";
import type { EvalItem } from "../types";
import type { useQueue } from "./use-queue";
import type { useQueueNav } from "./use-queue-nav";
import { yourReviewWords } from "./reviews-panel";

/**
 * The queue beside the item: the view chips (All, No verdict, Spot-check, Disputed, Adopted passes: the adopted passes
 * no person has typed a verdict on, what an overturning audit asks people to review), the suggestion/verdict/question/scenario
 * filters (in the URL), the compact rows with the machine suggestion's dot and the verdict, and where the open item
 * sits when the list does not show it. Hidden from 1024 to 1279 px unless `shown`.
 */
export function QueueList({
  queue,
  itemId,
  current,
  nav,
  listRef,
  shown,
  onFilter,
}: {
  queue: ReturnType<typeof useQueue>;
  itemId: string | undefined;
  current: EvalItem | undefined;
  nav: ReturnType<typeof useQueueNav>;
  listRef: RefObject<HTMLOListElement | null>;
  shown: boolean;
  onFilter: (patch: Parameters<ReturnType<typeof useEvalUrl>[1]>[0]) => void;
}) {
  const [url] = useEvalUrl();
  const rows = queue.rows;
  const matching = queue.counts?.matching;
  const view =
    url.status === "disputed"
      ? "disputed"
      : url.spot
        ? "spot"
        : url.source === "adopted" && url.verdict === "pass"
          ? "adopted"
          : url.verdict === "none"
            ? "open"
            : "all";
  const setFilter = onFilter;
  const queueOpen = shown;
  return (
    <section
      id="annotation-queue"
      aria-label="Items"
      className={`flex max-h-[70vh] min-h-0 flex-col rounded-xl border border-slate-200 bg-white lg:max-h-none ${queueOpen ? "" : "lg:hidden xl:flex"}`}
    >
      <div className="space-y-2 border-b border-slate-100 p-3">
        <div role="group" aria-label="Show" className="flex flex-wrap gap-1.5">
          {(
            [
              ["all", "All", { spot: undefined, verdict: undefined, status: undefined, source: undefined }],
              ["open", "No verdict", { spot: undefined, verdict: "none", status: undefined, source: undefined }],
              ["spot", "Spot-check", { spot: "1", verdict: undefined, status: undefined, source: undefined }],
              ["disputed", "Disputed", { spot: undefined, verdict: undefined, status: "disputed", source: undefined }],
              ["adopted", "Adopted passes", { spot: undefined, verdict: "pass", status: undefined, source: "adopted" }],
            ] as const
          ).map(([id, label, patch]) => (
            <ToggleChip key={id} pressed={view === id} onClick={() => setFilter(patch)}>
              {label}
            </ToggleChip>
          ))}
        </div>
        <div className="grid grid-cols-2 gap-2">
          <select
            aria-label="Machine suggestion"
            className={denseInputClass}
            value={url.suggestion ?? ""}
            onChange={(e) => setFilter({ suggestion: (e.target.value || undefined) as typeof url.suggestion })}
          >
            <option value="">Any suggestion</option>
            <option value="pass">Suggestion pass</option>
            <option value="fail">Suggestion fail</option>
            <option value="unknown">Suggestion unknown</option>
            <option value="none">No suggestion</option>
          </select>
          {view === "all" ? (
            <select
              aria-label="Verdict"
              className={denseInputClass}
              value={url.verdict ?? ""}
              onChange={(e) => setFilter({ verdict: (e.target.value || undefined) as typeof url.verdict })}
            >
              <option value="">Any verdict</option>
              <option value="pass">Verdict pass</option>
              <option value="fail">Verdict fail</option>
              <option value="none">No verdict</option>
            </select>
          ) : (
            <span />
          )}
          <SearchInput
            aria-label="Search questions"
            placeholder="Search questions"
            className={denseInputClass}
            value={url.q}
            onCommit={(q) => setFilter({ q })}
          />
          <SearchInput
            aria-label="Scenario"
            placeholder="Scenario"
            className={denseInputClass}
            value={url.cls}
            onCommit={(cls) => setFilter({ cls })}
          />
        </div>
        {queue.counts && (
          <p className="text-xs text-slate-500">
            {matching === queue.counts.total
              ? `${queue.counts.total} item${queue.counts.total === 1 ? "" : "s"}`
              : `${matching} of ${queue.counts.total} items match`}
          </p>
        )}
        {current && !nav.inList && !queue.isLoading && (
          <p role="note" className="rounded-md bg-brand-50 px-2 py-1 text-xs text-brand-900">
            Open: <span className="font-mono font-semibold">{current.key}</span>
            {nav.position
              ? `, item ${nav.position} of ${matching ?? "…"}, further down than the list has loaded. J and K move from it.`
              : ", which these filters do not list. J and K move to the listed items around it."}
          </p>
        )}
      </div>
      {queue.isLoading ? (
        <LoadingRows rows={8} label="Loading the queue" />
      ) : rows.length === 0 ? (
        <div className="p-4">
          <EmptyState title="No item matches">Change the filters above.</EmptyState>
        </div>
      ) : (
        <ol ref={listRef} className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto" aria-label="Queue">
          {rows.map((r) => (
            <li key={r.id} data-item={r.id}>
              <EvalLink
                to={{ item: r.id }}
                replace
                aria-current={r.id === itemId ? "true" : undefined}
                className={`flex gap-2 px-3 py-2 text-sm ${r.id === itemId ? "bg-brand-50 ring-2 ring-inset ring-brand-500/40" : "hover:bg-slate-50"}`}
              >
                <span className="w-14 shrink-0 truncate font-mono text-xs text-slate-600" title={r.key}>
                  {r.key}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="line-clamp-2 text-slate-800">{r.question}</span>
                  <span className="mt-1 flex flex-wrap items-center gap-1.5 text-[11px]">
                    <Dot verdict={r.suggestion?.verdict} />
                    {r.spotCheckLeft ? (
                      <span className="text-amber-700">spot-check</span>
                    ) : r.spotCheck && r.verdict ? (
                      <span className="text-slate-600">checked</span>
                    ) : null}
                    {r.audit && (
                      <span
                        className="rounded bg-violet-100 px-1 font-medium text-violet-800"
                        title="Audit item: an adopted pass drawn at random for a person to check"
                      >
                        audit
                      </span>
                    )}
                    {r.suggestion?.flags.length ? (
                      <span className="text-amber-700">⚑ {r.suggestion.flags.length}</span>
                    ) : null}
                    {r.status === "failed" && <span className="text-red-700">execution failed</span>}
                    {r.status === "disputed" && <span className="font-medium text-red-700">disputed</span>}
                    {r.reviews && r.status !== "disputed" && !r.verdict && (
                      <span className="text-slate-600">{yourReviewWords(r.reviews)}</span>
                    )}
                    {(r.status === "pending" || r.status === "answering") && (
                      <span className="text-slate-600">{r.status}</span>
                    )}
                  </span>
                </span>
                <span className="shrink-0 self-center">
                  <VerdictBadge verdict={r.verdict?.verdict} source={r.verdict?.source} />
                </span>
              </EvalLink>
            </li>
          ))}
          {queue.hasNextPage && (
            <li className="p-2 text-center">
              <Button
                size="sm"
                variant="ghost"
                onClick={() => queue.fetchNextPage()}
                disabled={queue.isFetchingNextPage}
              >
                {queue.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            </li>
          )}
        </ol>
      )}
      <p className="border-t border-slate-100 px-3 py-2 text-[11px] text-slate-500">
        Dot: the machine suggestion (green pass, red fail, amber unknown); the badge is the verdict that counts
      </p>
    </section>
  );
}

function Dot({ verdict }: { verdict: "pass" | "fail" | "unknown" | undefined }) {
  const color =
    verdict === "pass"
      ? "bg-emerald-500"
      : verdict === "fail"
        ? "bg-red-500"
        : verdict === "unknown"
          ? "bg-amber-400"
          : "bg-slate-300";
  return (
    <span className="inline-flex items-center gap-1 text-slate-600">
      <span className={`h-2 w-2 rounded-full ${color}`} aria-hidden="true" />
      machine {verdict ?? "—"}
    </span>
  );
}
