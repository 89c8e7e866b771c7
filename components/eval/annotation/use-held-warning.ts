"use client";

import { useCallback, useRef } from "react";
import { useConfirm } from "@/components/ui/dialog";
import type { EvalItem } from "../types";
import type { ReservationState, useReservation } from "./use-reservation";

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" */
function names(labels: string[]): string {
  if (labels.length <= 1) return labels[0] ?? "";
  return `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/** What the page says before a verdict on an item others hold: who, until when, and that it is allowed. */
export function heldWarning(key: string, heldBy: ReservationState["heldBy"], count: number) {
  const who = heldBy.length
    ? names(heldBy.map((h) => h.label))
    : count === 1
      ? "Someone else"
      : `${count} other people`;
  const one = heldBy.length ? heldBy.length === 1 : count === 1;
  const until = heldBy.length
    ? ` until ${clock(
        heldBy
          .map((h) => h.until)
          .sort()
          .at(-1)!,
      )}`
    : "";
  return {
    title: `${who} ${one ? "is" : "are"} reviewing this item`,
    description: `${who} reserved ${key} in the queue${until}. A reservation is a courtesy, not a lock: your verdict is stored all the same, but it may duplicate their work.`,
    confirmLabel: "Give my verdict anyway",
    cancelLabel: "Cancel",
  };
}

/**
 * Before a verdict (Pass, Fail, a comment; the buttons and the keys alike) on an item someone else holds (issue 23:
 * allowed, a reservation is a courtesy, not a lock), the page asks first in the confirmation dialog, naming who holds
 * it. The item's reservations are read afresh first, so someone who has left it since is not named; nobody else
 * holding it: no question. Resolves true when the verdict may go ahead.
 */
export function useHeldWarning(reservation: ReturnType<typeof useReservation>) {
  const confirm = useConfirm();
  const latest = useRef(reservation);
  latest.current = reservation;
  const asking = useRef(false);
  return useCallback(
    async (item: EvalItem): Promise<boolean> => {
      const known = latest.current.state?.reservedByOthers ?? item.queue.reservedByOthers;
      if (!known) return true;
      if (asking.current) return false; // a second key press while the first is being asked
      asking.current = true;
      try {
        const now = (await latest.current.refresh()) ?? latest.current.state;
        const held = now ? now.reservedByOthers : item.queue.reservedByOthers;
        if (!held) return true;
        return await confirm(heldWarning(item.key, now?.heldBy ?? [], held));
      } finally {
        asking.current = false;
      }
    },
    [confirm],
  );
}
