"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/dialog";
import { denseInputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows, Spinner } from "@/components/ui/feedback";
import { Kbd } from "@/components/ui/kbd";
import { Progress } from "@/components/ui/progress";
import { useToast } from "@/components/ui/toast";
import { deniedReason, useCaps, useEvalUrl, EvalLink } from "../context";
import { neighbour, nextOpenItem } from "../annotation-keys";
import { Breadcrumbs } from "../breadcrumbs";
import { RunStatusBadge } from "../badges";
import { queueFilter } from "../url-state";
import { errorInfo, type QueueRow } from "../types";
import { FailDialog, type FailInput } from "./fail-dialog";
import { ItemDetail } from "./item-detail";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { useAnnotationKeys } from "./use-annotation-keys";
import { useQueue } from "./use-queue";

/**
 * The annotation queue of one run: the item list (filters in the URL) beside the item's detail. Keyboard first:
 * P pass, F fail (a dialog asks basis and attribution), J/K next/previous, N next without a verdict, R raw JSON,
 * ? help. After a verdict the view moves to the next item without one; the next items are fetched ahead.
 */
export function QueueView({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const { caps, role } = useCaps();
  const [url, go] = useEvalUrl();
  const filter = useMemo(() => queueFilter(url), [url]);
  const queue = useQueue(runId, filter);
  const rows = queue.rows;
  const current = rows.find((r) => r.id === url.item) ?? (url.item ? undefined : rows[0]);
  const itemId = url.item ?? rows[0]?.id;
  const [failing, setFailing] = useState(false);
  const [help, setHelp] = useState(false);
  const [raw, setRaw] = useState(false);
  const [announce, setAnnounce] = useState("");
  const listRef = useRef<HTMLOListElement>(null);
  const meta = useQuery({ ...trpc.eval.meta.queryOptions(), staleTime: Infinity });

  const open = (id: string | undefined, replace = false) => id && go({ item: id }, { replace });

  // Fetch the detail of the items a person is likely to open next, so moving on is instant.
  useEffect(() => {
    if (!itemId) return;
    const i = rows.findIndex((r) => r.id === itemId);
    const ahead = [rows[i + 1], rows[i + 2], nextOpenItem(rows, itemId)].filter((r): r is QueueRow => !!r);
    for (const r of ahead) void qc.prefetchQuery({ ...trpc.eval.items.get.queryOptions({ id: runId, itemId: r.id }), staleTime: 30_000 });
    if (i >= rows.length - 5 && queue.hasNextPage && !queue.isFetchingNextPage) void queue.fetchNextPage();
  }, [itemId, rows, qc, trpc, runId, queue]);

  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-item="${itemId}"]`)?.scrollIntoView({ block: "nearest" });
  }, [itemId]);

  const verdict = useMutation({
    mutationFn: (v: { itemId: string; verdict: "pass" | "fail" } & Partial<FailInput>) =>
      client.eval.items.verdict.mutate({ id: runId, itemId: v.itemId, body: { verdict: v.verdict, basis: v.basis, attribution: v.attribution, classification: v.classification } }),
    onSuccess: (item, v) => {
      const before = rows.find((r) => r.id === v.itemId);
      const wasHuman = before?.verdict?.source === "human";
      queue.patchRow(
        v.itemId,
        { verdict: { verdict: v.verdict, source: "human" } },
        { judged: before?.verdict ? 0 : 1, human: wasHuman ? 0 : 1, adopted: before?.verdict?.source === "adopted" ? -1 : 0, spotCheckLeft: before?.spotCheck && !wasHuman ? -1 : 0 },
      );
      void qc.invalidateQueries({ queryKey: trpc.eval.items.get.queryKey({ id: runId, itemId: v.itemId }) });
      queue.settleOthers();
      void qc.invalidateQueries({ queryKey: trpc.eval.runs.pathKey() });
      const updated = rows.map((r) => (r.id === v.itemId ? { ...r, verdict: { verdict: v.verdict, source: "human" as const } } : r));
      const next = nextOpenItem(updated, v.itemId);
      setAnnounce(`${v.verdict === "pass" ? "Pass" : "Fail"} saved for ${item.key}.${next ? ` Next: ${next.key}.` : " Every listed item has a verdict."}`);
      if (next) open(next.id);
    },
    onError: (e) => toast({ tone: "error", title: "The verdict was not saved", description: errorInfo(e).message }),
  });
  const adopt = useMutation(
    trpc.eval.runs.adopt.mutationOptions({
      onSuccess: async (r) => {
        toast({ tone: "success", title: `${r.adopted} suggestion${r.adopted === 1 ? "" : "s"} adopted as verdicts`, description: `${r.spotCheck.length} items to spot-check are listed now.` });
        await queue.refresh();
        void qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
        go({ spot: "1", verdict: undefined, suggestion: undefined, item: r.spotCheck[0]?.id }, { replace: true });
      },
      onError: (e) => toast({ tone: "error", title: "Nothing adopted", description: errorInfo(e).message }),
    }),
  );

  const judgeable = current && (current.status === "answered" || current.status === "failed");
  const canJudge = caps.annotate && !!judgeable && !verdict.isPending;
  useAnnotationKeys(
    {
      pass: () => canJudge && current && verdict.mutate({ itemId: current.id, verdict: "pass" }),
      fail: () => canJudge && setFailing(true),
      next: () => open(neighbour(rows, itemId, 1)?.id, true),
      prev: () => open(neighbour(rows, itemId, -1)?.id, true),
      nextOpen: () => open(nextOpenItem(rows, itemId)?.id),
      raw: () => setRaw((r) => !r),
      help: () => setHelp(true),
    },
    { dialogOpen: failing || help },
  );

  if (queue.error) return <ErrorState error={queue.error} onRetry={() => queue.refetch()} />;
  const run = queue.run;
  const c = queue.counts;
  const setFilter = (patch: Parameters<typeof go>[0]) => go({ ...patch, item: undefined }, { replace: true });
  const view = url.spot ? "spot" : url.verdict === "none" ? "open" : "all";

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Breadcrumbs items={[{ label: "Annotation", to: { tab: "annotation" } }, { label: run ? `${run.shortId} · ${run.setName} v${run.setVersion}` : runId }]} />
        <div className="flex flex-wrap items-center gap-2">
          {run && <RunStatusBadge status={run.status} />}
          {run && (
            <EvalLink to={{ tab: "runs", run: run.shortId }} className="text-sm font-medium text-brand-700 hover:underline">
              Report
            </EvalLink>
          )}
          <Button size="sm" variant="ghost" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts">
            <Kbd>?</Kbd> Shortcuts
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={!caps.annotate || adopt.isPending || !c?.adoptable}
            title={!caps.annotate ? deniedReason(role, "annotate") : !c?.adoptable ? "No item without a verdict has a pass or fail suggestion" : undefined}
            onClick={async () => {
              if (!c) return;
              const ok = await confirm({
                title: "Adopt all machine suggestions?",
                description: (
                  <>
                    <strong>{c.adoptable}</strong> pass or fail suggestion{c.adoptable === 1 ? "" : "s"} become{c.adoptable === 1 ? "s" : ""} verdicts marked “adopted” (they count for the gate
                    like any verdict). {c.unknownOpen ? <><strong>{c.unknownOpen}</strong> unknown suggestion{c.unknownOpen === 1 ? "" : "s"} do not: a person decides those. </> : null}
                    Items that already have a verdict are left alone. Then the spot-check list opens: fails, unknowns and flagged items.
                  </>
                ),
                confirmLabel: `Adopt ${c.adoptable}`,
              });
              if (ok) adopt.mutate({ id: runId });
            }}
          >
            Adopt machine suggestions
          </Button>
        </div>
      </div>

      {c && (
        <div className="rounded-xl border border-slate-200 bg-white px-4 py-3">
          <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
            <Progress className="w-64" value={c.judged} max={c.total} label="Questions with a verdict" />
            <span>
              <strong className="tabular-nums">{c.human}</strong> by people
            </span>
            <span>
              <strong className="tabular-nums">{c.adopted}</strong> adopted
            </span>
            <span className={c.spotCheckLeft ? "text-amber-800" : "text-slate-600"}>
              <strong className="tabular-nums">{c.spotCheckLeft}</strong> spot-check left
            </span>
            {run?.status === "answering" && (
              <span className="inline-flex items-center gap-2 text-slate-600">
                <Spinner label="Still answering" className="h-3.5 w-3.5" /> still answering: {run.progress.done}/{run.progress.total}
              </span>
            )}
          </div>
        </div>
      )}

      <div className="grid gap-4 lg:h-[calc(100vh-16rem)] lg:min-h-[32rem] lg:grid-cols-[minmax(18rem,24rem)_1fr]">
        <section aria-label="Items" className="flex max-h-[70vh] min-h-0 flex-col rounded-xl border border-slate-200 bg-white lg:max-h-none">
          <div className="space-y-2 border-b border-slate-100 p-3">
            <div role="group" aria-label="Show" className="flex gap-1">
              {(
                [
                  ["all", "All", { spot: undefined, verdict: undefined }],
                  ["open", "No verdict", { spot: undefined, verdict: "none" }],
                  ["spot", "Spot-check", { spot: "1", verdict: undefined }],
                ] as const
              ).map(([id, label, patch]) => (
                <button key={id} type="button" aria-pressed={view === id} onClick={() => setFilter(patch)} className={`rounded-md px-2.5 py-1 text-xs font-medium ${view === id ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}>
                  {label}
                </button>
              ))}
            </div>
            <div className="grid grid-cols-2 gap-2">
              <select aria-label="Machine suggestion" className={denseInputClass} value={url.suggestion ?? ""} onChange={(e) => setFilter({ suggestion: (e.target.value || undefined) as typeof url.suggestion })}>
                <option value="">Any suggestion</option>
                <option value="pass">Suggestion pass</option>
                <option value="fail">Suggestion fail</option>
                <option value="unknown">Suggestion unknown</option>
                <option value="none">No suggestion</option>
              </select>
              {view === "all" ? (
                <select aria-label="Verdict" className={denseInputClass} value={url.verdict ?? ""} onChange={(e) => setFilter({ verdict: (e.target.value || undefined) as typeof url.verdict })}>
                  <option value="">Any verdict</option>
                  <option value="pass">Verdict pass</option>
                  <option value="fail">Verdict fail</option>
                  <option value="none">No verdict</option>
                </select>
              ) : (
                <span />
              )}
              <SearchBox key={`q-${url.q ?? ""}`} label="Search questions" initial={url.q} onCommit={(q) => setFilter({ q })} />
              <SearchBox key={`c-${url.cls ?? ""}`} label="Scenario" initial={url.cls} onCommit={(cls) => setFilter({ cls })} />
            </div>
            {c && <p className="text-xs text-slate-500">{c.matching === c.total ? `${c.total} items` : `${c.matching} of ${c.total} items match`}</p>}
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
                    <span className="w-12 shrink-0 font-mono text-xs text-slate-600">{r.key}</span>
                    <span className="min-w-0 flex-1">
                      <span className="line-clamp-2 text-slate-800">{r.question}</span>
                      <span className="mt-1 flex flex-wrap items-center gap-1.5 text-[11px]">
                        <Dot verdict={r.suggestion?.verdict} />
                        {r.spotCheck && <span className="text-amber-700">spot-check</span>}
                        {r.suggestion?.flags.length ? <span className="text-amber-700">⚑ {r.suggestion.flags.length}</span> : null}
                        {r.status === "failed" && <span className="text-red-700">execution failed</span>}
                        {(r.status === "pending" || r.status === "answering") && <span className="text-slate-500">{r.status}</span>}
                      </span>
                    </span>
                    <span className="shrink-0 self-center">
                      {r.verdict ? (
                        <span className={`rounded px-1.5 py-0.5 text-[11px] font-semibold ${r.verdict.verdict === "pass" ? "bg-emerald-100 text-emerald-800" : "bg-red-100 text-red-800"}`} title={r.verdict.source === "adopted" ? "adopted suggestion" : "a person's verdict"}>
                          {r.verdict.verdict}
                          {r.verdict.source === "adopted" ? "*" : ""}
                        </span>
                      ) : (
                        <span className="text-[11px] text-slate-500" title="no verdict">—<span className="sr-only">no verdict</span></span>
                      )}
                    </span>
                  </EvalLink>
                </li>
              ))}
              {queue.hasNextPage && (
                <li className="p-2 text-center">
                  <Button size="sm" variant="ghost" onClick={() => queue.fetchNextPage()} disabled={queue.isFetchingNextPage}>
                    {queue.isFetchingNextPage ? "Loading…" : "Load more"}
                  </Button>
                </li>
              )}
            </ol>
          )}
          <p className="border-t border-slate-100 px-3 py-2 text-[11px] text-slate-500">* adopted machine suggestion · dot: machine suggestion (green pass, red fail, amber unknown)</p>
        </section>

        <section aria-label="Item" className="min-h-0 min-w-0 lg:overflow-y-auto lg:rounded-xl">
          {itemId ? (
            <ItemDetail
              runId={runId}
              itemId={itemId}
              position={current ? rows.indexOf(current) + 1 : undefined}
              total={c?.matching}
              raw={raw}
              onToggleRaw={() => setRaw((r) => !r)}
              vocabulary={meta.data}
              canJudge={canJudge}
              judgeTitle={!caps.annotate ? deniedReason(role, "annotate") : !judgeable ? "This item has no answer yet" : undefined}
              saving={verdict.isPending}
              onPass={() => current && verdict.mutate({ itemId: current.id, verdict: "pass" })}
              onFail={() => setFailing(true)}
              onPrev={() => open(neighbour(rows, itemId, -1)?.id, true)}
              onNext={() => open(neighbour(rows, itemId, 1)?.id, true)}
            />
          ) : (
            !queue.isLoading && <EmptyState title="Choose an item">Pick one from the list, or press J.</EmptyState>
          )}
        </section>
      </div>
      <span className="sr-only" aria-live="polite">
        {announce}
      </span>
      <FailDialog
        open={failing}
        onClose={() => setFailing(false)}
        runId={runId}
        itemId={itemId}
        vocabulary={meta.data}
        saving={verdict.isPending}
        onSubmit={(input) => {
          if (!current) return;
          setFailing(false);
          verdict.mutate({ itemId: current.id, verdict: "fail", ...input });
        }}
      />
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
    </div>
  );
}

function Dot({ verdict }: { verdict: "pass" | "fail" | "unknown" | undefined }) {
  const color = verdict === "pass" ? "bg-emerald-500" : verdict === "fail" ? "bg-red-500" : verdict === "unknown" ? "bg-amber-400" : "bg-slate-300";
  return (
    <span className="inline-flex items-center gap-1 text-slate-600">
      <span className={`h-2 w-2 rounded-full ${color}`} aria-hidden="true" />
      machine {verdict ?? "—"}
    </span>
  );
}

function SearchBox({ label, initial, onCommit }: { label: string; initial?: string; onCommit: (v: string | undefined) => void }) {
  const [v, setV] = useState(initial ?? "");
  useEffect(() => {
    const t = setTimeout(() => {
      if ((v.trim() || undefined) !== (initial || undefined)) onCommit(v.trim() || undefined);
    }, 350);
    return () => clearTimeout(t);
  }, [v, initial, onCommit]);
  return <input aria-label={label} placeholder={label} type="search" className={denseInputClass} value={v} onChange={(e) => setV(e.target.value)} />;
}
