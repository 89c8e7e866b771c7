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
 * Releases the reservation with a request the browser still sends after the page is gone: `fetch` with `keepalive`
 * (a tRPC call is an ordinary fetch, dropped with the page; `sendBeacon` can only POST) to the REST route
 * `DELETE /api/eval/runs/{id}/items/{itemId}/reservation`, which takes the browser's session cookie (same origin, so
 * it is sent; REST has no other origin rule) and needs no body.
 */
export function releaseOnPageEnd(runId: string, itemId: string) {
  const url = `/api/eval/runs/${encodeURIComponent(runId)}/items/${encodeURIComponent(itemId)}/reservation`;
  try {
    void fetch(url, { method: "DELETE", keepalive: true, credentials: "same-origin" }).catch(() => undefined);
  } catch {
    // a courtesy: the reservation lapses by itself after its 10 minutes
  }
}

/**
 * The open item is reserved for the person while it is open (issue 23): reserved when it opens, renewed every few
 * minutes, released when the view leaves it (another item, another view of the app) and when the page itself ends
 * (a closed tab or window, a reload, a link out: `pagehide`, with a request that outlives the page,
 * `releaseOnPageEnd`). A page the browser kept in its back/forward cache reserves the item again when it is shown
 * (`pageshow` persisted). A mere tab switch releases nothing: the person is coming back. The server keeps the rules
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
    const onHide = () => releaseOnPageEnd(runId, itemId);
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) calls.current.reserve(input);
    };
    window.addEventListener("pagehide", onHide);
    window.addEventListener("pageshow", onShow);
    return () => {
      clearInterval(timer);
      window.removeEventListener("pagehide", onHide);
      window.removeEventListener("pageshow", onShow);
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
