"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { createContext, useCallback, useContext, useMemo, type ReactNode } from "react";
import { evalHref, parseEvalUrl, withParams, type EvalUrl } from "./url-state";

/** What the signed-in person may do here (from the server's one permission table); controls follow it, the server enforces it. */
export type EvalCaps = { annotate: boolean; manage: boolean; publish: boolean };
type EvalContext = { caps: EvalCaps; role: string };
const Ctx = createContext<EvalContext | null>(null);

export function EvalProvider({ caps, role, children }: EvalContext & { children: ReactNode }) {
  const value = useMemo(() => ({ caps, role }), [caps, role]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useCaps(): EvalContext {
  const c = useContext(Ctx);
  if (!c) throw new Error("useCaps needs <EvalProvider>");
  return c;
}

/** The reason shown on a control a role may not use (the server refuses it with 403 too). */
export function deniedReason(role: string, need: "annotate" | "manage" | "publish"): string {
  const who = { annotate: "annotators, builders and admins", manage: "builders and admins", publish: "builders and admins" }[need];
  return `Only ${who} can do this; your role is ${role}.`;
}

/** The view's URL state and a way to change it (push for a new view, replace for filters). */
export function useEvalUrl(): [EvalUrl, (patch: Partial<EvalUrl>, opts?: { replace?: boolean }) => void, (patch: Partial<EvalUrl>) => string] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const state = useMemo(() => parseEvalUrl(params), [params]);
  const hrefFor = useCallback((patch: Partial<EvalUrl>) => evalHref(withParams(state, patch)), [state]);
  const go = useCallback(
    (patch: Partial<EvalUrl>, opts: { replace?: boolean } = {}) => {
      const href = hrefFor(patch);
      if (pathname !== "/eval" || href !== evalHref(state)) (opts.replace ? router.replace : router.push)(href, { scroll: false });
    },
    [hrefFor, pathname, router, state],
  );
  return [state, go, hrefFor];
}
