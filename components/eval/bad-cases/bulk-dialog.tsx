"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { FormDialog } from "@/components/ui/form-dialog";
import { LoadMore } from "@/components/ui/pagination";
import { SearchInput } from "@/components/ui/search-input";
import { ago, plural } from "../format";
import { useBadCasesForRun, useRunsWithUnfiledFails } from "./use-bad-cases";

/**
 * "A Bad Case for every fail" of one run: the runs offered are those with failed questions that have no Bad Case yet,
 * with how many (found by the server, searchable by Run ID, set or environment, a page at a time).
 */
export function BulkDialog({ open, onClose, agentId }: { open: boolean; onClose: () => void; agentId: string }) {
  const [q, setQ] = useState<string | undefined>(undefined);
  const [run, setRun] = useState("");
  const runs = useRunsWithUnfiledFails(agentId, q, open);
  const offered = runs.data?.pages.flatMap((p) => p.items) ?? [];
  const chosen = offered.find((r) => r.id === run);
  const create = useBadCasesForRun(() => {
    setRun("");
    onClose();
  });
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      size="lg"
      title="A Bad Case for every fail"
      description="Every question of the run whose verdict is fail gets a Bad Case (those that have one are left alone). Runs with such fails are listed."
      submitLabel={chosen ? `Create ${plural(chosen.progress.unfiledFails, "Bad Case")}` : "Create Bad Cases"}
      pendingLabel="Creating…"
      canSubmit={!!chosen}
      pending={create.isPending}
      onSubmit={() => chosen && create.mutate({ id: chosen.id })}
      className="space-y-3"
    >
      <label className="block text-sm font-medium text-slate-800">
        Find a run
        <SearchInput className="mt-1" value={q} onCommit={setQ} placeholder="Run ID, set or environment" />
      </label>
      {runs.error ? (
        <ErrorState error={runs.error} onRetry={() => runs.refetch()} />
      ) : runs.isLoading ? (
        <LoadingRows rows={3} label="Loading runs with fails" />
      ) : offered.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-600">
          {q
            ? `No run matching “${q}” has a fail without a Bad Case.`
            : "Every failed question of this agent's runs already has a Bad Case."}
        </p>
      ) : (
        <fieldset>
          <legend className="sr-only">Run</legend>
          <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200">
            {offered.map((r) => (
              <li key={r.id}>
                <label
                  className={cn(
                    "flex cursor-pointer items-center gap-3 px-3 py-2 text-sm",
                    run === r.id ? "bg-brand-50" : "hover:bg-slate-50",
                  )}
                >
                  <input
                    type="radio"
                    name="bad-case-run"
                    value={r.id}
                    checked={run === r.id}
                    onChange={() => setRun(r.id)}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="font-mono font-semibold">{r.shortId}</span> · {r.setName} v{r.setVersion}
                    {r.environment ? <span className="text-slate-600"> · {r.environment}</span> : null}
                    <span className="block text-xs text-slate-600">
                      created {ago(r.createdAt)} · {r.progress.judged}/{r.progress.total} judged
                    </span>
                  </span>
                  <Badge tone="danger">
                    {plural(r.progress.unfiledFails, "fail")} without a Bad Case
                    {r.progress.fails > r.progress.unfiledFails ? ` (of ${r.progress.fails})` : ""}
                  </Badge>
                </label>
              </li>
            ))}
          </ul>
          <LoadMore
            shown={offered.length}
            hasMore={!!runs.hasNextPage}
            loading={runs.isFetchingNextPage}
            onLoadMore={() => runs.fetchNextPage()}
            noun="runs"
          />
        </fieldset>
      )}
    </FormDialog>
  );
}
