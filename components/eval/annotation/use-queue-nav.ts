"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo } from "react";
import { useTRPC } from "@/lib/trpc";
import { neighbour, windowNav } from "../annotation-keys";
import type { In, QueueRow } from "../types";

type Filter = NonNullable<In["items"]["neighbours"]["query"]>;
type Queue = {
  rows: QueueRow[];
  isLoading: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};
type Target = { id: string; key?: string };

/** Which items a list still has to do: see isLeft. */
export type LeftRule = "open" | "spot" | "adopted";

/**
 * An item still to do in this queue: without a verdict; under the spot-check filter, every spot-check item no person
 * has typed a verdict on (adopted ones too: `spotCheckLeft`, the server's one rule); in the adopted passes
 * (source=adopted), every one no person has typed a verdict on. The server's `nextOpen` is the same.
 */
export const isLeft = (r: QueueRow, rule: LeftRule) =>
  rule === "spot" ? r.spotCheckLeft : rule === "adopted" ? !r.verdict || r.verdict.source === "adopted" : !r.verdict;

/** The next item left after `currentId` (then from the top), else null. */
export function nextLeftItem(
  rows: readonly QueueRow[],
  currentId: string | undefined,
  rule: LeftRule,
): QueueRow | null {
  const i = currentId ? rows.findIndex((x) => x.id === currentId) : -1;
  const left = (r: QueueRow) => isLeft(r, rule);
  return rows.slice(i + 1).find(left) ?? rows.slice(0, Math.max(0, i)).find(left) ?? null;
}

/**
 * Where the open item sits in the queue and where J, K, N and "after a verdict" lead. An item in the loaded rows moves
 * within them (no request; the rows ahead are fetched ahead). An item the list has not loaded (a shared link to item
 * 150 of a run, from a Bad Case or the online-loop board) asks the server for its place and the items around it under
 * the same filters; J/K move within that window at once while the new item's window loads, so moving on never jumps
 * back to the list's first row.
 */
export function useQueueNav(runId: string, filter: Filter, queue: Queue, itemId: string | undefined) {
  const rule: LeftRule = filter.spotCheck ? "spot" : filter.source === "adopted" ? "adopted" : "open";
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { rows } = queue;
  const index = itemId ? rows.findIndex((r) => r.id === itemId) : -1;
  const inList = index !== -1;
  const options = useMemo(
    () => trpc.eval.items.neighbours.queryOptions({ id: runId, itemId: itemId ?? "", query: filter }),
    [trpc, runId, itemId, filter],
  );
  const remote = useQuery({
    ...options,
    enabled: !!itemId && !inList && !queue.isLoading,
    staleTime: 10_000,
    // while the next item's window loads, the previous one still knows its neighbours
    placeholderData: (previous) => (previous && itemId && windowNav(previous, itemId) ? previous : undefined),
  });
  const placed = !inList && remote.data && itemId ? windowNav(remote.data, itemId) : null;

  // the item details a person is likely to open next, fetched ahead so moving on is instant
  const ahead = useMemo<Array<Target | null | undefined>>(
    () =>
      inList
        ? [rows[index + 1], rows[index + 2], rows[index - 1], nextLeftItem(rows, itemId, rule)]
        : [placed?.next, placed?.prev],
    [inList, rows, index, itemId, placed?.next, placed?.prev, rule],
  );
  useEffect(() => {
    for (const r of ahead)
      if (r)
        void qc.prefetchQuery({ ...trpc.eval.items.get.queryOptions({ id: runId, itemId: r.id }), staleTime: 30_000 });
    if (inList && index >= rows.length - 5 && queue.hasNextPage && !queue.isFetchingNextPage)
      void queue.fetchNextPage();
  }, [ahead, qc, trpc, runId, inList, index, rows.length, queue]);

  /**
   * The next item left after `id` from the loaded rows (as patched after a verdict), without asking the server:
   * a row, null when none is left anywhere, undefined when only the server knows (rows beyond the loaded pages).
   */
  const nextLeftLocal = useCallback(
    (id: string, patched: QueueRow[] = rows): Target | null | undefined => {
      const i = patched.findIndex((r) => r.id === id);
      if (i === -1) return undefined;
      const after = patched.slice(i + 1).find((r) => isLeft(r, rule));
      if (after) return after;
      return queue.hasNextPage ? undefined : nextLeftItem(patched, id, rule); // wraps to the top
    },
    [rows, rule, queue.hasNextPage],
  );
  /** The next item left after `id`: from the loaded rows when they hold it, else the server's answer (`nextOpen`). */
  const nextOpenAfter = useCallback(
    async (id: string, patched: QueueRow[] = rows): Promise<Target | null> => {
      const local = nextLeftLocal(id, patched);
      if (local !== undefined) return local;
      const fresh = await qc.fetchQuery({
        ...trpc.eval.items.neighbours.queryOptions({ id: runId, itemId: id, query: filter }),
        staleTime: 0,
      });
      return fresh.nextOpen;
    },
    [qc, trpc, runId, filter, rows, nextLeftLocal],
  );

  return {
    /** 1-based place among the matching items, when known */
    position: inList ? index + 1 : (placed?.position ?? undefined),
    /** J / K targets (null at an end; undefined while an item outside the list is still being placed) */
    next: inList ? neighbour(rows, itemId, 1) : placed?.next,
    prev: inList ? neighbour(rows, itemId, -1) : placed?.prev,
    inList,
    nextLeftLocal,
    nextOpenAfter,
  };
}
