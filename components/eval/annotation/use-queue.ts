"use client";

import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import type { In, QueueRow } from "../types";

type Filter = NonNullable<In["items"]["queue"]["query"]>;
type Page = Awaited<ReturnType<ReturnType<typeof useTRPCClient>["eval"]["items"]["queue"]["query"]>>;
export const QUEUE_PAGE = 100;

/** The annotation queue of a run with the URL's filters, page by page (compact rows), and a way to patch one row in place. */
export function useQueue(runId: string, filter: Omit<Filter, "limit" | "cursor">) {
  const client = useTRPCClient();
  const qc = useQueryClient();
  const queryKey = useMemo(() => ["eval-queue", runId, filter] as const, [runId, filter]);
  const q = useInfiniteQuery({
    queryKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      client.eval.items.queue.query({
        id: runId,
        query: { ...filter, limit: QUEUE_PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
      }),
    getNextPageParam: (last: Page) => last.nextCursor ?? undefined,
    refetchInterval: (query) => (query.state.data?.pages[0]?.run.status === "answering" ? 3000 : false),
  });
  const rows: QueueRow[] = useMemo(() => q.data?.pages.flatMap((p) => p.items) ?? [], [q.data]);
  const first = q.data?.pages[0];
  /** A verdict's row in place (its badge); the counts are the server's (use-review-progress.ts), never recounted here. */
  const patchRow = useCallback(
    (id: string, patch: Partial<QueueRow>) =>
      qc.setQueryData<InfiniteData<Page>>(queryKey, (d) =>
        d
          ? {
              ...d,
              pages: d.pages.map((p) => ({ ...p, items: p.items.map((r) => (r.id === id ? { ...r, ...patch } : r)) })),
            }
          : d,
      ),
    [qc, queryKey],
  );
  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: ["eval-queue", runId] }), [qc, runId]);
  /**
   * After a verdict: this list is patched in place (no refetch, so no recount of a 10,000-item run per verdict);
   * the run's lists under other filters are stale now (a row may leave "No verdict"): one being shown is refetched
   * (an in-flight fetch of it is cancelled), the others are dropped so they load fresh when opened.
   */
  const settleOthers = useCallback(() => {
    const mine = JSON.stringify(queryKey);
    const others = {
      queryKey: ["eval-queue", runId],
      predicate: (query: { queryKey: readonly unknown[] }) => JSON.stringify(query.queryKey) !== mine,
    };
    void qc.invalidateQueries({ ...others, refetchType: "active" });
    qc.removeQueries({ ...others, type: "inactive" });
  }, [qc, queryKey, runId]);
  return { ...q, rows, run: first?.run, counts: first?.counts, patchRow, refresh, settleOthers };
}

/** The open item's details (answer, payload, verdict, suggestion), kept fresh for 30 s; nothing without an item. */
export function useItemDetail(runId: string, itemId: string | undefined) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.eval.items.get.queryOptions({ id: runId, itemId: itemId ?? "" }),
    enabled: !!itemId,
    staleTime: 30_000,
  });
}
