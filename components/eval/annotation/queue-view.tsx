"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useVocabulary } from "../hooks/use-vocabulary";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/dialog";
import { denseInputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows, Spinner } from "@/components/ui/feedback";
import { Kbd } from "@/components/ui/kbd";
import { Progress } from "@/components/ui/progress";
import { SearchInput } from "@/components/ui/search-input";
import { useToast } from "@/components/ui/toast";
import { ToggleChip } from "@/components/ui/toggle-chip";
import { deniedReason, useCaps, useEvalUrl, EvalLink } from "../context";
import { Breadcrumbs } from "../breadcrumbs";
import { RunStatusBadge, VerdictBadge } from "../badges";
import { queueFilter } from "../url-state";
import { CommentDialog, FailDialog } from "./fail-dialog";
import { ItemDetail } from "./item-detail";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { useAnnotationKeys } from "./use-annotation-keys";
import { useQueue } from "./use-queue";
import { useQueueNav } from "./use-queue-nav";
import { usePaneScroll } from "./use-pane-scroll";
import { useReviewProgress } from "./use-review-progress";
import { useJudging } from "./use-verdict";
import { useMutationToast } from "../hooks/use-mutation-toast";

/**
 * The annotation queue of one run: the item list (filters in the URL) beside the item's detail. Keyboard first:
 * P pass, F fail (a dialog asks basis and attribution), C comment, U undo one's last verdict, J/K next/previous, N next
 * left, R raw JSON, ? help. After a verdict the view moves at once (optimistically, use-verdict.ts) to the next item
 * left: without a verdict, or in the Spot-check list one no person has typed a verdict on; the next items are fetched
 * ahead. The Spot-check list opens on its first item left; when none is left the page says so and offers the report.
 */
export function QueueView({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const notify = useMutationToast();
  const confirm = useConfirm();
  const { caps, role } = useCaps();
  const [url, go] = useEvalUrl();
  const filter = useMemo(() => queueFilter(url), [url]);
  const queue = useQueue(runId, filter);
  const rows = queue.rows;
  // the Spot-check list opens on its first item left to check, not on one a person already decided
  const itemId = url.item ?? (url.spot ? (rows.find((r) => r.spotCheckLeft) ?? rows[0]) : rows[0])?.id;
  const nav = useQueueNav(runId, filter, queue, itemId);
  // the open item is what its detail says (loaded from the server), wherever it sits in the list
  const detail = useQuery({
    ...trpc.eval.items.get.queryOptions({ id: runId, itemId: itemId ?? "" }),
    enabled: !!itemId,
    staleTime: 30_000,
  });
  const current = detail.data && detail.data.id === itemId ? detail.data : undefined;
  const progress = useReviewProgress(runId, { answering: queue.run?.status === "answering" });
  const [failing, setFailing] = useState(false);
  const [commenting, setCommenting] = useState(false);
  const [help, setHelp] = useState(false);
  const [raw, setRaw] = useState(false);
  const [checking, setChecking] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const paneRef = useRef<HTMLElement>(null);
  // from 1024 to 1279 px the item pane gets the width: the queue is one click away (always shown from 1280 up)
  const [queueOpen, setQueueOpen] = useState(false);
  usePaneScroll(areaRef, paneRef, itemId);
  const meta = useVocabulary();

  const open = (id: string | undefined, replace = false) => id && go({ item: id }, { replace });
  // J/K pressed while an item outside the list is still being placed: done as soon as its neighbours are known
  const [pendingMove, setPendingMove] = useState<{ dir: 1 | -1; from: string } | null>(null);
  const move = (dir: 1 | -1) => {
    const target = dir === 1 ? nav.next : nav.prev;
    if (target === undefined) return itemId && setPendingMove({ dir, from: itemId });
    setPendingMove(null);
    open(target?.id, true);
  };
  useEffect(() => {
    if (!pendingMove) return;
    const target = pendingMove.dir === 1 ? nav.next : nav.prev;
    if (pendingMove.from !== itemId) setPendingMove(null);
    else if (target !== undefined) {
      setPendingMove(null);
      if (target) go({ item: target.id }, { replace: true });
    }
  }, [pendingMove, nav.next, nav.prev, itemId, go]);

  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-item="${itemId}"]`)?.scrollIntoView({ block: "nearest" });
  }, [itemId]);

  const judging = useJudging(runId, {
    rows,
    patchRow: queue.patchRow,
    settled: () => {
      queue.settleOthers();
      progress.refreshSoon();
      void qc.invalidateQueries({ queryKey: trpc.eval.runs.pathKey() });
    },
    resync: () => {
      void queue.refresh();
      progress.refreshSoon();
    },
    nextLeftLocal: nav.nextLeftLocal,
    nextOpenAfter: nav.nextOpenAfter,
    open: (id) => open(id),
  });
  const { setNoneLeft } = judging;
  // a new list (another filter) starts without the "nothing left" note
  const listKey = JSON.stringify(filter);
  useEffect(() => setNoneLeft(false), [listKey, setNoneLeft]);
  const adopt = useMutation(
    trpc.eval.runs.adopt.mutationOptions({
      onSuccess: async (r) => {
        toast({
          tone: "success",
          title: `${r.adopted} suggestion${r.adopted === 1 ? "" : "s"} adopted as verdicts`,
          description: `${r.spotCheck.length} items to spot-check are listed now.`,
        });
        // every adopted item has a new verdict version: reload the details rather than judge on a stale one
        await qc.resetQueries({ queryKey: trpc.eval.items.get.pathKey() });
        await queue.refresh();
        void qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
        const firstLeft = r.spotCheck.find((i) => !i.verdict || i.verdict.source === "adopted") ?? r.spotCheck[0];
        go({ spot: "1", verdict: undefined, suggestion: undefined, item: firstLeft?.id }, { replace: true });
      },
      onError: notify.fail("Nothing adopted"),
    }),
  );
  const askAdopt = async () => {
    setChecking(true);
    // the count a person confirms is the server's, now: others may have judged since the page counted
    const fresh = await progress.fresh().catch((e: unknown) => {
      notify.fail("Nothing adopted")(e);
      return null;
    });
    setChecking(false);
    if (!fresh) return;
    const n = fresh.counts.adoptable;
    const unknown = fresh.counts.unknownOpen;
    if (!n) {
      toast({
        tone: "info",
        title: "Nothing to adopt",
        description: "No item without a verdict has a pass or fail suggestion any more.",
      });
      return;
    }
    const ok = await confirm({
      title: "Adopt all machine suggestions?",
      description: (
        <>
          <strong>{n}</strong> pass or fail suggestion{n === 1 ? "" : "s"} become{n === 1 ? "s" : ""} verdicts marked
          “adopted” (they count for the gate like any verdict).{" "}
          {unknown ? (
            <>
              <strong>{unknown}</strong> unknown suggestion{unknown === 1 ? "" : "s"} do not: a person decides those.{" "}
            </>
          ) : null}
          Items that already have a verdict are left alone. Then the spot-check list opens: fails, unknowns and flagged
          items.
        </>
      ),
      confirmLabel: `Adopt ${n}`,
    });
    if (ok) adopt.mutate({ id: runId });
  };

  const judgeable = current?.status === "answered" || current?.status === "failed";
  const canJudge = caps.annotate && judgeable;
  const judgeTitle = !caps.annotate
    ? deniedReason(role, "annotate")
    : !current
      ? "The item is still loading"
      : !judgeable
        ? current.status === "cancelled"
          ? "This item was cancelled before it was answered"
          : "This item has no answer yet"
        : undefined;
  const pass = () => canJudge && current && judging.judge({ item: current, verdict: "pass" });
  const fail = () => canJudge && setFailing(true);
  const comment = () => canJudge && setCommenting(true);
  const undo = () => caps.annotate && void judging.undo();
  useAnnotationKeys(
    {
      pass,
      fail,
      comment,
      undo,
      next: () => move(1),
      prev: () => move(-1),
      nextOpen: () =>
        itemId &&
        void nav.nextOpenAfter(itemId).then(
          (r) => {
            setNoneLeft(!r || r.id === itemId);
            open(r?.id);
          },
          () => undefined,
        ),
      raw: () => setRaw((r) => !r),
      help: () => setHelp(true),
    },
    { dialogOpen: failing || commenting || help },
  );

  if (queue.error) return <ErrorState error={queue.error} onRetry={() => queue.refetch()} />;
  const run = queue.run;
  // the review progress as the server counts it (the queue's first page carries the same counts until it has answered)
  const c = progress.counts ?? queue.counts;
  const matching = queue.counts?.matching;
  const setFilter = (patch: Parameters<typeof go>[0]) => go({ ...patch, item: undefined }, { replace: true });
  const view = url.spot ? "spot" : url.verdict === "none" ? "open" : "all";

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Breadcrumbs
          items={[
            { label: "Annotation", to: { tab: "annotation" } },
            { label: run ? `${run.shortId} · ${run.setName} v${run.setVersion}` : runId },
          ]}
        />
        <div className="flex flex-wrap items-center gap-2">
          {run && <RunStatusBadge status={run.status} />}
          {run && (
            <EvalLink
              to={{ tab: "runs", run: run.shortId }}
              className="text-sm font-medium text-brand-700 hover:underline"
            >
              Report
            </EvalLink>
          )}
          <Button
            size="sm"
            variant="secondary"
            className="hidden lg:inline-flex xl:hidden"
            aria-expanded={queueOpen}
            aria-controls="annotation-queue"
            onClick={() => setQueueOpen((o) => !o)}
          >
            {queueOpen ? "Hide the queue" : "Show the queue"}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts">
            <Kbd>?</Kbd> Shortcuts
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={!caps.annotate || adopt.isPending || checking || !c?.adoptable}
            title={
              !caps.annotate
                ? deniedReason(role, "annotate")
                : c && !c.adoptable
                  ? "No item without a verdict has a pass or fail suggestion"
                  : undefined
            }
            onClick={askAdopt}
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
              <strong className="tabular-nums">{c.spotCheckLeft}</strong> spot-check{c.spotCheckLeft === 1 ? "" : "s"}{" "}
              left
            </span>
            {run?.status === "answering" && (
              <span className="inline-flex items-center gap-2 text-slate-600">
                <Spinner label="Still answering" className="h-3.5 w-3.5" /> still answering: {run.progress.done}/
                {run.progress.total}
              </span>
            )}
            {judging.last && (
              <Button
                size="sm"
                variant="secondary"
                className="ml-auto"
                disabled={!caps.annotate || judging.undoing}
                title="Takes back your last verdict of this session; the history keeps both"
                onClick={undo}
              >
                Undo your {judging.last.verdict} on <span className="font-mono">{judging.last.key}</span> <Kbd>U</Kbd>
              </Button>
            )}
          </div>
          {(judging.noneLeft || (url.spot && c.spotCheckLeft === 0 && c.total > 0)) && !queue.isLoading && (
            <div
              role="status"
              className="mt-3 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-950"
            >
              <span>
                {url.spot
                  ? "Nothing is left to spot-check: every spot-check item has a verdict a person typed."
                  : "Nothing is left in this list: every listed item has a verdict."}
              </span>
              {run && (
                <EvalLink
                  to={{ tab: "runs", run: run.shortId }}
                  className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800"
                >
                  Open the report and the gate
                </EvalLink>
              )}
            </div>
          )}
        </div>
      )}

      <div
        ref={areaRef}
        className={`grid gap-4 lg:h-[var(--pane-h,calc(100vh-16rem))] xl:grid-cols-[18rem_minmax(0,1fr)] ${queueOpen ? "lg:grid-cols-[17rem_minmax(0,1fr)]" : "lg:grid-cols-[minmax(0,1fr)]"}`}
      >
        <section
          id="annotation-queue"
          aria-label="Items"
          className={`flex max-h-[70vh] min-h-0 flex-col rounded-xl border border-slate-200 bg-white lg:max-h-none ${queueOpen ? "" : "lg:hidden xl:flex"}`}
        >
          <div className="space-y-2 border-b border-slate-100 p-3">
            <div role="group" aria-label="Show" className="flex flex-wrap gap-1.5">
              {(
                [
                  ["all", "All", { spot: undefined, verdict: undefined }],
                  ["open", "No verdict", { spot: undefined, verdict: "none" }],
                  ["spot", "Spot-check", { spot: "1", verdict: undefined }],
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
                        {r.suggestion?.flags.length ? (
                          <span className="text-amber-700">⚑ {r.suggestion.flags.length}</span>
                        ) : null}
                        {r.status === "failed" && <span className="text-red-700">execution failed</span>}
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

        <section
          ref={paneRef}
          aria-label="Item"
          className="min-h-0 min-w-0 lg:overflow-y-auto lg:overscroll-contain lg:rounded-xl"
        >
          {itemId ? (
            <ItemDetail
              runId={runId}
              item={current}
              error={detail.error}
              onRetry={() => detail.refetch()}
              position={nav.position}
              total={matching}
              raw={raw}
              onToggleRaw={() => setRaw((r) => !r)}
              vocabulary={meta.data}
              canJudge={canJudge}
              judgeTitle={judgeTitle}
              saving={false}
              onPass={pass}
              onFail={fail}
              onComment={comment}
              onPrev={() => move(-1)}
              onNext={() => move(1)}
              canPrev={!!nav.prev && nav.prev.id !== itemId}
              canNext={!!nav.next && nav.next.id !== itemId}
            />
          ) : (
            !queue.isLoading && <EmptyState title="Choose an item">Pick one from the list, or press J.</EmptyState>
          )}
        </section>
      </div>
      <span className="sr-only" aria-live="polite">
        {judging.announce}
      </span>
      <FailDialog
        open={failing}
        onClose={() => setFailing(false)}
        item={current}
        vocabulary={meta.data}
        saving={false}
        onSubmit={(input) => {
          if (!current || !canJudge) return;
          setFailing(false);
          judging.judge({ item: current, verdict: "fail", ...input });
        }}
      />
      <CommentDialog
        open={commenting}
        onClose={() => setCommenting(false)}
        item={current}
        onSubmit={(input) => {
          if (!current || !canJudge) return;
          setCommenting(false);
          judging.judge({ item: current, ...input });
        }}
      />
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
    </div>
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
