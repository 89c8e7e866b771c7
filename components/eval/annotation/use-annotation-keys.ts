"use client";

import { useEffect, useRef } from "react";
import { actionFor, type AnnotationAction } from "../annotation-keys";

/** Binds the annotation shortcuts (annotation-keys.ts) to the document while the queue view is open. */
export function useAnnotationKeys(
  handlers: Partial<Record<AnnotationAction, () => void>>,
  opts: { dialogOpen: boolean },
) {
  const ref = useRef(handlers);
  ref.current = handlers;
  const dialog = useRef(opts.dialogOpen);
  dialog.current = opts.dialogOpen;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = actionFor(
        {
          key: e.key,
          ctrlKey: e.ctrlKey,
          metaKey: e.metaKey,
          altKey: e.altKey,
          target: e.target as HTMLElement | null,
        },
        { dialogOpen: dialog.current || !!document.querySelector("dialog[open]") },
      );
      const handler = action ? ref.current[action] : undefined;
      if (!handler) return;
      e.preventDefault();
      handler();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
