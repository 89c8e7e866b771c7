"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useCursorPages } from "../use-cursor-pages";
import { Button } from "@/components/ui/button";
import { FilterSelect } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Pagination } from "@/components/ui/pagination";
import { deniedReason, useCaps, useEvalUrl, EvalLink } from "../context";
import { words } from "../format";
import { CompareView } from "./compare-view";
import { CreateRunDialog } from "./create-run-dialog";
import { RunsTable } from "./runs-table";
import { RunView } from "./run-view";
import { UsageView } from "./usage-view";

const STATUSES = ["created", "answering", "awaiting_review", "completed", "cancelled", "failed"] as const;
const TIERS = ["pipeline_live", "pipeline", "invoke"] as const;
const PAGE = 25;
/** The most runs one comparison takes (the server's limit, GET /api/eval/runs/compare). */
const MAX_COMPARED = 8;

/** Runs of the agent: the list (filters in the URL), a run's page with its report, the comparison, usage. */
export function RunsTab({ agentId, agentName }: { agentId: string; agentName: string }) {
  const [url] = useEvalUrl();
  if (url.view === "compare") return <CompareView agentId={agentId} />;
  if (url.view === "usage") return <UsageView agentId={agentId} agentName={agentName} />;
  if (url.run) return <RunView runId={url.run} />;
  return <RunList agentId={agentId} agentName={agentName} />;
}

function RunList({ agentId, agentName }: { agentId: string; agentName: string }) {
  const trpc = useTRPC();
  const { caps, role } = useCaps();
  const [url, go] = useEvalUrl();
  const [creating, setCreating] = useState(false);
  // runs picked for a many-run comparison (kept across pages and filters of the list)
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (shortId: string) =>
    setPicked((p) =>
      p.includes(shortId) ? p.filter((x) => x !== shortId) : p.length < MAX_COMPARED ? [...p, shortId] : p,
    );
  const pages = useCursorPages();
  const sets = useQuery(trpc.eval.sets.list.queryOptions({ agentId, limit: 200 }));
  const filter = {
    agentId,
    limit: PAGE,
    ...(url.set ? { setId: url.set } : {}),
    ...(url.status && (STATUSES as readonly string[]).includes(url.status)
      ? { status: url.status as (typeof STATUSES)[number] }
      : {}),
    ...(url.tier ? { tier: url.tier } : {}),
  };
  const cursor = pages.cursor;
  const runs = useQuery({
    ...trpc.eval.runs.list.queryOptions({ ...filter, ...(cursor ? { cursor } : {}) }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.items.some((r) => r.status === "answering" || r.status === "created") ? 2000 : false,
  });
  const rows = runs.data?.items ?? [];
  const setFilter = (patch: Parameters<typeof go>[0]) => {
    pages.reset();
    go(patch, { replace: true });
  };
  const page = pages.page;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Filters">
          <FilterSelect
            label="Set"
            className="w-56"
            value={url.set}
            onChange={(set) => setFilter({ set })}
            any="All sets"
            options={(sets.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
          <FilterSelect
            label="Status"
            className="w-44"
            value={url.status}
            onChange={(status) => setFilter({ status })}
            any="Any status"
            options={STATUSES.map((s) => ({ value: s, label: words(s) }))}
          />
          <FilterSelect
            label="Tier"
            className="w-40"
            value={url.tier}
            onChange={(tier) => setFilter({ tier: tier as (typeof TIERS)[number] | undefined })}
            any="Any tier"
            options={TIERS.map((t) => ({ value: t, label: words(t) }))}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <EvalLink
            to={{ tab: "runs", view: "usage" }}
            className="inline-flex items-center rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            Usage
          </EvalLink>
          {picked.length >= 2 ? (
            <EvalLink
              to={{ tab: "runs", view: "compare", runs: picked.join(",") }}
              className="inline-flex items-center rounded-lg border border-brand-600 bg-brand-50 px-3.5 py-2 text-sm font-medium text-brand-800 hover:bg-brand-100"
            >
              Compare {picked.length} selected runs
            </EvalLink>
          ) : (
            <EvalLink
              to={{ tab: "runs", view: "compare" }}
              className="inline-flex items-center rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
            >
              Compare runs
            </EvalLink>
          )}
          <Button
            onClick={() => setCreating(true)}
            disabled={!caps.manage}
            title={caps.manage ? undefined : deniedReason(role, "manage")}
          >
            New run
          </Button>
        </div>
      </div>

      {runs.error ? (
        <ErrorState error={runs.error} onRetry={() => runs.refetch()} />
      ) : runs.isLoading ? (
        <LoadingRows rows={5} label="Loading runs" />
      ) : rows.length === 0 ? (
        <EmptyState
          title={url.set || url.status || url.tier ? "No run matches these filters" : `No run of ${agentName} yet`}
          action={
            caps.manage && !(url.set || url.status || url.tier) ? (
              <Button onClick={() => setCreating(true)}>Create a run</Button>
            ) : undefined
          }
        >
          {url.set || url.status || url.tier
            ? "Clear a filter to see more."
            : "A run answers every question of a frozen set version; then people judge the answers."}
        </EmptyState>
      ) : (
        <>
          <p className="text-xs text-slate-600" aria-live="polite">
            {picked.length === 0
              ? `Tick up to ${MAX_COMPARED} runs of one set version to compare them question by question.`
              : `${picked.length} of at most ${MAX_COMPARED} runs selected: ${picked.join(", ")}.`}
            {picked.length > 0 && (
              <button
                type="button"
                className="ml-2 font-medium text-brand-700 hover:underline"
                onClick={() => setPicked([])}
              >
                Clear
              </button>
            )}
          </p>
          <RunsTable caption="Runs" rows={rows} opens="runs" pick={{ picked, toggle, max: MAX_COMPARED }} />
          <Pagination
            label="Run pages"
            from={page * PAGE + 1}
            to={page * PAGE + rows.length}
            hasPrev={page > 0}
            hasNext={!!runs.data?.nextCursor}
            onPrev={pages.prev}
            onNext={() => pages.next(runs.data?.nextCursor)}
          />
        </>
      )}
      <CreateRunDialog open={creating} onClose={() => setCreating(false)} agentId={agentId} />
    </div>
  );
}
