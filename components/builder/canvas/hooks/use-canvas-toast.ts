"use client";

/** The canvas' short messages through the app's toasts (`useToast`); the notices the canvas opened with are shown once. */
import { useCallback, useEffect, useRef } from "react";
import { useToast } from "@/components/ui/toast";

export type CanvasToast = (tone: "info" | "error" | "success", text: string) => void;

export function useCanvasToast(openingNotices: readonly string[] | undefined): CanvasToast {
  const push = useToast();
  const toast = useCallback<CanvasToast>((tone, text) => push({ tone, title: text }), [push]);
  const notices = useRef(openingNotices);
  useEffect(() => {
    for (const n of notices.current ?? []) toast("info", n);
  }, [toast]);
  return toast;
}
