"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { ICONS, Icon } from "./icon";

/**
 * Short messages after an action ("Verdict saved", "Saved version 3."): announced politely, errors assertively;
 * each goes away by itself (4 s, errors 8 s) or with its dismiss button. They show at the bottom right, or inside a
 * page's `<ToastViewport>` while one is mounted (the canvas keeps them over its drawing area).
 */
type Tone = "success" | "error" | "info";
type Toast = { id: number; tone: Tone; title: string; description?: string };
type ToastApi = { push: (t: Omit<Toast, "id">) => void; setHost: (el: HTMLElement | null) => void };
const ToastContext = createContext<ToastApi | null>(null);

const TONES: Record<Tone, string> = {
  success: "border-emerald-200 bg-white [&_[data-dot]]:bg-emerald-500",
  error: "border-red-200 bg-white [&_[data-dot]]:bg-red-500",
  info: "border-slate-200 bg-white [&_[data-dot]]:bg-brand-500",
};

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [host, setHost] = useState<HTMLElement | null>(null);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const push = useCallback(
    (t: Omit<Toast, "id">) => setToasts((ts) => [...ts.slice(-3), { ...t, id: next.current++ }]),
    [],
  );
  const api = useMemo(() => ({ push, setHost }), [push]);
  const list = (
    <>
      <div aria-live="polite" className="contents">
        {toasts
          .filter((t) => t.tone !== "error")
          .map((t) => (
            <ToastCard key={t.id} toast={t} onDismiss={dismiss} />
          ))}
      </div>
      <div aria-live="assertive" className="contents">
        {toasts
          .filter((t) => t.tone === "error")
          .map((t) => (
            <ToastCard key={t.id} toast={t} onDismiss={dismiss} />
          ))}
      </div>
    </>
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      {host ? (
        createPortal(list, host)
      ) : (
        <div className="pointer-events-none fixed right-4 top-4 z-[60] flex w-80 flex-col gap-2">{list}</div>
      )}
    </ToastContext.Provider>
  );
}

/** Where toasts show while this is mounted (position it with className; it lets clicks through between toasts). */
export function ToastViewport({ className }: { className: string }) {
  const api = useContext(ToastContext);
  const setHost = api?.setHost;
  const ref = useCallback(
    (el: HTMLDivElement | null) => {
      setHost?.(el);
    },
    [setHost],
  );
  return <div ref={ref} className={`pointer-events-none flex flex-col gap-2 ${className}`} />;
}

function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), toast.tone === "error" ? 8000 : 4000);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  return (
    <div
      role={toast.tone === "error" ? "alert" : "status"}
      className={`pointer-events-auto flex max-w-xl items-start gap-3 rounded-lg border px-3 py-2.5 text-sm shadow-lg ${TONES[toast.tone]}`}
    >
      <span data-dot className="mt-1.5 h-2 w-2 shrink-0 rounded-full" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-slate-900">{toast.title}</p>
        {toast.description && <p className="mt-0.5 text-slate-600">{toast.description}</p>}
      </div>
      <button
        type="button"
        aria-label="Dismiss"
        onClick={() => onDismiss(toast.id)}
        className="rounded p-0.5 text-slate-400 hover:text-slate-700"
      >
        <Icon d={ICONS.x} className="h-3.5 w-3.5" strokeWidth={2} />
      </button>
    </div>
  );
}

export function useToast(): (t: Omit<Toast, "id">) => void {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast needs a <ToastProvider> above it");
  return api.push;
}
