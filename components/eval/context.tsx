"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from "react";
import { evalHref, nextView, parseEvalUrl, type EvalUrl } from "./url-state";

/** What the signed-in person may do here (from the server's one permission table); controls follow it, the server enforces it. */
export type EvalCaps = { annotate: boolean; manage: boolean; publish: boolean; adjudicate: boolean };
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
  const who = {
    annotate: "annotators, builders and admins",
    manage: "builders and admins",
    publish: "builders and admins",
  }[need];
  return `Only ${who} can do this; your role is ${role}.`;
}

/**
 * The view's URL state and a way to change it (push for a new view, replace for filters). Every view is the same
 * page, so changing it is a history entry, not a navigation: the native History API, which Next's router follows
 * (useSearchParams updates), so no request goes to the server for it.
 */
export function useEvalUrl(): [
  EvalUrl,
  (patch: Partial<EvalUrl>, opts?: { replace?: boolean }) => void,
  (patch: Partial<EvalUrl>) => string,
] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const state = useMemo(() => parseEvalUrl(params), [params]);
  const hrefFor = useCallback((patch: Partial<EvalUrl>) => evalHref(nextView(state, patch)), [state]);
  const go = useCallback(
    (patch: Partial<EvalUrl>, opts: { replace?: boolean } = {}) => {
      if (pathname !== "/eval") return void router.push(hrefFor(patch));
      // From the address bar as it is now, not from the last render's state: two filter changes in quick succession
      // (a date, then a select) would otherwise have the second one rebuilt from before the first and undo it.
      const current = parseEvalUrl(new URLSearchParams(window.location.search));
      const href = evalHref(nextView(current, patch));
      if (href !== evalHref(current)) window.history[opts.replace ? "replaceState" : "pushState"](null, "", href);
    },
    [hrefFor, pathname, router],
  );
  return [state, go, hrefFor];
}

/** A link to another view of the evaluation center: a real link (open in a new tab works), followed without a server round trip. */
export function EvalLink({
  to,
  replace = false,
  onClick,
  ...rest
}: { to: Partial<EvalUrl>; replace?: boolean } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  const [, go, hrefFor] = useEvalUrl();
  return (
    <a
      {...rest}
      href={hrefFor(to)}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(e);
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        go(to, { replace });
      }}
    />
  );
}
