"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { useToast } from "@/components/ui/toast";
import { errorInfo, type EvalItem, type QueueRow } from "../types";
import type { FailInput } from "./fail-dialog";

export type VerdictRequest = { item: EvalItem; verdict: "pass" | "fail" } & Partial<FailInput>;
type Client = ReturnType<typeof useTRPCClient>;
type Saved = Awaited<ReturnType<Client["eval"]["items"]["verdict"]["mutate"]>>;
type Undone = Awaited<ReturnType<Client["eval"]["items"]["undoVerdict"]["mutate"]>>;
type Target = { id: string; key?: string };

/** The item as the cache keeps it after a verdict (or its undo): the server's answer (its new verdictVersion), the history until it is reloaded. */
export function withSaved(old: EvalItem, saved: Saved | Undone): EvalItem {
  const { changed: _changed, undone: _undone, ...item } = saved as Saved & Partial<Undone>;
  const byLabel = item.verdict && item.verdict.byId === old.verdict?.byId ? old.verdict.byLabel : "you";
  return { ...old, ...item, verdict: item.verdict ? { ...item.verdict, byLabel } : null };
}

/** The queue row's verdict and spot-check mark for an item's verdict (the server's rule: left until a person typed one). */
export function rowPatch(
  row: Pick<QueueRow, "spotCheck"> | undefined,
  verdict: EvalItem["verdict"] | Saved["verdict"],
) {
  return {
    verdict: verdict ? { verdict: verdict.verdict, source: verdict.source } : null,
    spotCheckLeft: !!row?.spotCheck && (!verdict || verdict.source === "adopted"),
  } satisfies Partial<QueueRow>;
}

/**
 * A person's verdicts on the annotation queue, and where the view goes (the queue view's one place for it).
 *
 * - **Optimistic**: P (or a saved fail, or a comment) moves to the next item left at once, before the server answers;
 *   the row shows the verdict meanwhile. When only the server knows the next item (beyond the loaded rows), the move
 *   waits for its answer and is dropped if the person opened another item or list meanwhile. A refused verdict brings
 *   the item back with the reason: someone else's verdict written meanwhile (409 VERDICT_CONFLICT; the item is
 *   reloaded, nothing was overwritten), or any other refusal (the row is put back as it was).
 * - Every verdict carries the verdictVersion of the item as read; a second verdict on an item whose first is still on
 *   its way waits for it and sends the version it made (one's own verdict is never a conflict).
 * - **Undo** (U and a button): takes back one's own last verdict of this session, one step, through the server
 *   (`eval.items.undoVerdict`; the history keeps both changes) and opens that item again.
 * - When nothing is left after a verdict the page is told (`noneLeft`), so it says so and offers the report.
 */
export function useJudging(
  runId: string,
  view: {
    rows: QueueRow[];
    patchRow: (id: string, patch: Partial<QueueRow>) => void;
    /** after a verdict is stored: other lists, progress counts, the runs list */
    settled: () => void;
    /** after a conflict: this list and the counts from the server again */
    resync: () => void;
    nextLeftLocal: (id: string, patched: QueueRow[]) => Target | null | undefined;
    nextOpenAfter: (id: string, patched: QueueRow[]) => Promise<Target | null>;
    open: (id: string) => void;
    /** where the person is now: the open item and the list (its filters), to tell whether they moved meanwhile */
    at: { itemId: string | undefined; list: string };
  },
) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const toast = useToast();
  const [announce, setAnnounce] = useState("");
  const [noneLeft, setNoneLeft] = useState(false);
  const [last, setLast] = useState<{ itemId: string; key: string; verdict: "pass" | "fail"; version: number } | null>(
    null,
  );
  /** verdicts on their way, per item: the next one on the same item waits for it */
  const inFlight = useRef(new Map<string, Promise<unknown>>());
  const viewRef = useRef(view);
  viewRef.current = view;
  const keyOf = useCallback((itemId: string) => trpc.eval.items.get.queryKey({ id: runId, itemId }), [trpc, runId]);

  const save = useMutation({
    mutationFn: ({ item, verdict, basis, attribution, classification }: VerdictRequest) =>
      client.eval.items.verdict.mutate({
        id: runId,
        itemId: item.id,
        body: { verdict, basis, attribution, classification, expectedVersion: item.verdictVersion },
      }),
  });
  const undoMutation = useMutation({
    mutationFn: (l: { itemId: string; version: number }) =>
      client.eval.items.undoVerdict.mutate({ id: runId, itemId: l.itemId, body: { version: l.version } }),
  });

  const stored = useCallback(
    (saved: Saved | Undone) => {
      qc.setQueryData(keyOf(saved.id), (old) => (old ? withSaved(old, saved) : old));
      // the history is reloaded when the item is shown again, not now: the view has moved on, and a refetch of the
      // item being left would only compete with the next verdict on the server
      void qc.invalidateQueries({ queryKey: keyOf(saved.id), refetchType: "none" });
      viewRef.current.settled();
    },
    [qc, keyOf],
  );

  /** A verdict on `item` (as the page shows it): the view moves on now, the server's answer follows. */
  const judge = useCallback(
    (req: VerdictRequest) => {
      const v = viewRef.current;
      const { item } = req;
      const row = v.rows.find((r) => r.id === item.id);
      const optimistic = { verdict: { verdict: req.verdict, source: "human" as const }, spotCheckLeft: false };
      const patched = v.rows.map((r) => (r.id === item.id ? { ...r, ...optimistic } : r));
      v.patchRow(item.id, optimistic);
      const moveOn = (next: Target | null) => {
        setNoneLeft(!next);
        setAnnounce(
          `${req.verdict === "pass" ? "Pass" : "Fail"} for ${item.key}.${next ? ` Next: ${next.key ?? "the next item"}.` : " Nothing is left in this list."}`,
        );
        if (next && next.id !== item.id) v.open(next.id);
      };
      const local = v.nextLeftLocal(item.id, patched);
      if (local !== undefined) moveOn(local);
      // where the verdict was given: a move that waits for the server happens only if the person is still there (a
      // late move would take them off an item or list they opened meanwhile, and their next key would land on it)
      const list = v.at.list;
      const stillThere = () => viewRef.current.at.itemId === item.id && viewRef.current.at.list === list;

      const before = inFlight.current.get(item.id);
      const run = (async () => {
        if (before) await before.catch(() => undefined);
        // after one's own earlier verdict on it: the version that verdict made
        const fresh = before ? (qc.getQueryData(keyOf(item.id)) ?? item) : item;
        return save.mutateAsync({ ...req, item: fresh });
      })();
      inFlight.current.set(item.id, run);
      void run
        .then(
          async (saved) => {
            stored(saved);
            if (saved.changed)
              setLast({ itemId: saved.id, key: item.key, verdict: req.verdict, version: saved.verdictVersion });
            if (local === undefined) {
              const next = await v.nextOpenAfter(item.id, patched).catch(() => null);
              if (stillThere()) moveOn(next);
            }
          },
          (e: unknown) => {
            const info = errorInfo(e);
            // the item comes back with the reason: the person decides it again
            if (info.code === "VERDICT_CONFLICT") {
              const now = (info.details[0] as { verdict?: { verdict?: string } | null } | undefined)?.verdict?.verdict;
              toast({
                tone: "error",
                title: "Someone else judged this item meanwhile",
                description: `${item.key}: its verdict is now ${now ?? "none"}. The item is back, reloaded: read it and decide again.`,
              });
              void qc.resetQueries({ queryKey: keyOf(item.id) });
              viewRef.current.resync();
            } else {
              toast({ tone: "error", title: `The verdict on ${item.key} was not saved`, description: info.message });
              viewRef.current.patchRow(item.id, { verdict: row?.verdict ?? null, spotCheckLeft: !!row?.spotCheckLeft });
            }
            setNoneLeft(false);
            setAnnounce(`The verdict on ${item.key} was not saved: ${info.message}`);
            viewRef.current.open(item.id);
          },
        )
        .finally(() => {
          if (inFlight.current.get(item.id) === run) inFlight.current.delete(item.id);
        });
    },
    [qc, keyOf, save, stored, toast],
  );

  /** U: takes back one's own last verdict of this session (one step) and opens that item again. */
  const undo = useCallback(async () => {
    if (!last || undoMutation.isPending) return;
    const pending = inFlight.current.get(last.itemId);
    if (pending) await pending.catch(() => undefined);
    try {
      const undone = await undoMutation.mutateAsync({ itemId: last.itemId, version: last.version });
      stored(undone);
      const row = viewRef.current.rows.find((r) => r.id === undone.id);
      viewRef.current.patchRow(undone.id, rowPatch(row, undone.verdict));
      setLast(null);
      setNoneLeft(false);
      setAnnounce(
        `Your ${last.verdict} on ${last.key} is taken back; its verdict is ${undone.verdict ? `${undone.verdict.verdict} (${undone.verdict.source})` : "none"} again.`,
      );
      toast({
        tone: "info",
        title: `Your ${last.verdict} on ${last.key} is taken back`,
        description: undone.verdict
          ? `It is ${undone.verdict.verdict} (${undone.verdict.source === "adopted" ? "adopted" : "as before"}) again. The history keeps both.`
          : "It has no verdict again. The history keeps both.",
      });
      viewRef.current.open(undone.id);
    } catch (e) {
      const info = errorInfo(e);
      if (info.code === "VERDICT_CONFLICT" || info.code === "VERDICT_NOT_UNDOABLE") setLast(null);
      toast({ tone: "error", title: `Nothing taken back on ${last.key}`, description: info.message });
    }
  }, [last, undoMutation, stored, toast]);

  return { judge, undo, last, undoing: undoMutation.isPending, announce, noneLeft, setNoneLeft };
}
