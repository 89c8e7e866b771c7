"use client";

/**
 * Unsaved work is not left by accident: closing or reloading the tab gets the browser's own prompt, and following
 * an in-app link asks first (the work stays as a local draft either way).
 */
import { useEffect } from "react";
import { leavingTo } from "../../model/keys";

export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      const a = (e.target as HTMLElement | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!a || !leavingTo({ href: a.href, target: a.target, download: a.hasAttribute("download") }, e, window.location.href)) return;
      if (!window.confirm("You have unsaved changes. They are kept as a local draft in this browser. Leave the canvas?")) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);
}
