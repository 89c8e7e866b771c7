"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useVocabulary } from "../hooks/use-vocabulary";
import { EmptyState, ErrorState } from "@/components/ui/feedback";
import { deniedReason, useCaps, useEvalUrl } from "../context";
import { queueFilter } from "../url-state";
import type { EvalItem } from "../types";
import { CommentDialog, FailDialog } from "./fail-dialog";
import { ItemDetail } from "./item-detail";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { useAnnotationKeys } from "./use-annotation-keys";
import { useQueue } from "./use-queue";
import { useQueueNav } from "./use-queue-nav";
import { useItemMove } from "./use-item-move";
import { QueueToolbar } from "./queue-toolbar";
import { usePaneScroll } from "./use-pane-scroll";
import { useReviewProgress } from "./use-review-progress";
import { useReservation } from "./use-reservation";
import { useHeldWarning } from "./use-held-warning";
import { useJudging } from "./use-verdict";
import { useAdopt } from "./use-adopt";
import { useItemDetail } from "./use-queue";
import { QueueList } from "./queue-list";
import { ReviewSummary } from "./review-summary";

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
  const { caps, role } = useCaps();
  const [url, go] = useEvalUrl();
  const filter = useMemo(() => queueFilter(url), [url]);
  const queue = useQueue(runId, filter);
  const rows = queue.rows;
  // the Spot-check list opens on its first item left to check, not on one a person already decided
  const itemId = url.item ?? (url.spot ? (rows.find((r) => r.spotCheckLeft) ?? rows[0]) : rows[0])?.id;
  const nav = useQueueNav(runId, filter, queue, itemId);
  // the open item is what its detail says (loaded from the server), wherever it sits in the list
  const detail = useItemDetail(runId, itemId);
  const current = detail.data && detail.data.id === itemId ? detail.data : undefined;
  const progress = useReviewProgress(runId, { answering: queue.run?.status === "answering" });
  const [failing, setFailing] = useState(false);
  const [commenting, setCommenting] = useState(false);
  const [help, setHelp] = useState(false);
  const [raw, setRaw] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const paneRef = useRef<HTMLElement>(null);
  // from 1024 to 1279 px the item pane gets the width: the queue is one click away (always shown from 1280 up)
  const [queueOpen, setQueueOpen] = useState(false);
  usePaneScroll(areaRef, paneRef, itemId);
  const meta = useVocabulary();

  const open = (id: string | undefined, replace = false) => id && go({ item: id }, { replace });
  const move = useItemMove(nav, itemId, go, open);

  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-item="${itemId}"]`)?.scrollIntoView({ block: "nearest" });
  }, [itemId]);

  // a new list (another filter) starts without the "nothing left" note; a verdict's late move stays in its list
  const listKey = JSON.stringify(filter);
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
    at: { itemId, list: listKey },
  });
  const { setNoneLeft } = judging;
  useEffect(() => setNoneLeft(false), [listKey, setNoneLeft]);
  const adopt = useAdopt(runId, { progress, queue });

  const judgeable = current?.status === "answered" || current?.status === "failed";
  // the open item is reserved for this person while it is open (a courtesy to the others, not a lock)
  const reserving = useReservation(runId, judgeable ? itemId : undefined, caps.annotate);
  const reservation = reserving.state;
  // a verdict on an item someone else holds is allowed, after the page says who holds it (use-held-warning.ts)
  const mayJudge = useHeldWarning(reserving);
  const canJudge = caps.annotate && judgeable;
  const judgeTitle = !caps.annotate
    ? deniedReason(role, "annotate")
    : !current
      ? "The item is still loading"
      : !judgeable
        ? current.status === "cancelled"
          ? "This item was cancelled before it was answered"
          : current.status === "disputed"
            ? "The reviewers disagree: an adjudicator decides this item"
            : "This item has no answer yet"
        : undefined;
  /** `then` once the person may give a verdict on the open item (asked first when someone else holds it) */
  const whenMayJudge = (then: (item: EvalItem) => void) => {
    if (!canJudge || !current) return;
    const item = current;
    void mayJudge(item).then((ok) => ok && then(item));
  };
  const pass = () => whenMayJudge((item) => judging.judge({ item, verdict: "pass" }));
  const fail = () => whenMayJudge(() => setFailing(true));
  const comment = () => whenMayJudge(() => setCommenting(true));
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

  return (
    <div className="space-y-4">
      <QueueToolbar
        runId={runId}
        run={run}
        counts={c}
        adopt={adopt}
        queueOpen={queueOpen}
        setQueueOpen={setQueueOpen}
        onHelp={() => setHelp(true)}
      />

      {c && (
        <ReviewSummary
          counts={c}
          run={run}
          judging={judging}
          canUndo={caps.annotate}
          onUndo={undo}
          spot={!!url.spot}
          loading={queue.isLoading}
        />
      )}

      <div
        ref={areaRef}
        className={`grid gap-4 lg:h-[var(--pane-h,calc(100vh-16rem))] xl:grid-cols-[18rem_minmax(0,1fr)] ${queueOpen ? "lg:grid-cols-[17rem_minmax(0,1fr)]" : "lg:grid-cols-[minmax(0,1fr)]"}`}
      >
        <QueueList
          queue={queue}
          itemId={itemId}
          current={current}
          nav={nav}
          listRef={listRef}
          shown={queueOpen}
          onFilter={setFilter}
        />

        <section
          ref={paneRef}
          aria-label="Item"
          className="min-h-0 min-w-0 lg:overflow-y-auto lg:overscroll-contain lg:rounded-xl"
        >
          {itemId && reservation && (
            <p
              data-testid="reservation"
              className={`mb-2 rounded-lg border px-3 py-1.5 text-xs ${reservation.reservedByOthers ? "border-amber-200 bg-amber-50 text-amber-900" : "border-slate-200 bg-white text-slate-600"}`}
            >
              {reservation.reserved && reservation.until
                ? `Reserved for you until ${new Date(reservation.until).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`
                : "Not reserved for you: the item needs no more reviewers"}
              {reservation.reservedByOthers
                ? reservation.heldBy.length
                  ? ` · also reserved by ${reservation.heldBy.map((h) => h.label).join(", ")}`
                  : ` · also reserved by ${reservation.reservedByOthers} other ${reservation.reservedByOthers === 1 ? "person" : "people"}`
                : ""}
              {current?.queue.assignedToOther ? " · assigned to someone else" : ""}
            </p>
          )}
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
