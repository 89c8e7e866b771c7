"use client";

/**
 * Unsaved work is not left by accident: closing or reloading the tab gets the browser's own prompt, and following
 * an in-app link asks in an accessible confirmation dialog first (the work stays as a local draft either way).
 * When the answer is "leave", the same link is followed again, so Next's client-side navigation still applies.
 */
import { useEffect, useRef } from "react";
import { useConfirm } from "@/components/ui/dialog";
import { leavingTo } from "../../model/keys";

export const LEAVE_QUESTION = {
  title: "Leave the canvas?",
  description: "You have unsaved changes. They are kept as a local draft in this browser.",
  confirmLabel: "Leave",
  cancelLabel: "Stay",
};

export function useLeaveGuard(dirty: boolean): void {
  const confirm = useConfirm();
  /** the link being followed after a "leave" answer: that click goes through */
  const allowed = useRef<HTMLAnchorElement | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      const a = (e.target as HTMLElement | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!a) return;
      if (allowed.current === a) {
        allowed.current = null;
        return;
      }
      const url = leavingTo(
        { href: a.href, target: a.target, download: a.hasAttribute("download") },
        e,
        window.location.href,
      );
      if (!url) return;
      e.preventDefault();
      e.stopPropagation();
      void confirm(LEAVE_QUESTION).then((leave) => {
        if (!leave) return;
        if (!a.isConnected) return void window.location.assign(url);
        allowed.current = a;
        a.click();
      });
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty, confirm]);
}
