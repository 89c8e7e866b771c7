"use client";

import { useEffect, useState } from "react";
import type { useEvalUrl } from "../context";
import type { useQueueNav } from "./use-queue-nav";

/**
 * J/K: open the next or previous item of the queue. Pressed while an item outside the loaded list is still being
 * placed, the move is done as soon as its neighbours are known (and dropped if another item was opened meanwhile).
 */
export function useItemMove(
  nav: ReturnType<typeof useQueueNav>,
  itemId: string | undefined,
  go: ReturnType<typeof useEvalUrl>[1],
  open: (id: string | undefined, replace?: boolean) => unknown,
) {
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
  return move;
}
