"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";

/** Renew well inside the server's 10 minutes (RESERVATION_MS), so an open item stays reserved. */
const RENEW_MS = 4 * 60 * 1000;

export type ReservationState = {
  itemId: string;
  reserved: boolean;
  until: string | null;
  reservedByOthers: number;
  /** the others holding it, by name (the page names them before a verdict) */
  heldBy: { label: string; until: string }[];
};

/**
 * The open item is reserved for the person while it is open (issue 23): reserved when it opens, renewed every few
 * minutes, released when the view leaves it (another item, another view of the app; a closed tab's reservation
 * lapses after its 10 minutes). The server keeps the rules
 * (server/eval/runs/reservations.ts); a reservation is a courtesy, so a failure here never blocks judging.
 */
export function useReservation(runId: string, itemId: string | undefined, enabled: boolean) {
  const trpc = useTRPC();
  const [state, setState] = useState<ReservationState | null>(null);
  const reserve = useMutation(trpc.eval.items.reserve.mutationOptions({ onSuccess: setState }));
  const release = useMutation(trpc.eval.items.release.mutationOptions());
  // the mutations' functions change identity per render: keep the latest in refs so the effect runs per item only
  const calls = useRef({ reserve: reserve.mutate, reserveAsync: reserve.mutateAsync, release: release.mutate });
  calls.current = { reserve: reserve.mutate, reserveAsync: reserve.mutateAsync, release: release.mutate };
  useEffect(() => {
    if (!enabled || !itemId) return;
    const input = { id: runId, itemId };
    calls.current.reserve(input);
    const timer = setInterval(() => calls.current.reserve(input), RENEW_MS);
    return () => {
      clearInterval(timer);
      setState(null);
      calls.current.release(input);
    };
  }, [runId, itemId, enabled]);
  const current = state && state.itemId === itemId ? state : null;
  /**
   * The item's reservations as they are now (renewing one's own, as the timer would): asked before a verdict on an
   * item someone else held when it opened, so a person who has left it since is not named. Null when it cannot be
   * asked (then the state as last known is what the page goes by).
   */
  const refresh = useCallback(async (): Promise<ReservationState | null> => {
    if (!enabled || !itemId) return null;
    try {
      const fresh = await calls.current.reserveAsync({ id: runId, itemId });
      setState(fresh);
      return fresh;
    } catch {
      return null;
    }
  }, [runId, itemId, enabled]);
  return { state: current, refresh };
}
