"use client";

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";

/** Short messages after an action ("Verdict saved", "3 Bad Cases created"): announced politely, errors assertively. */
type Tone = "success" | "error" | "info";
type Toast = { id: number; tone: Tone; title: string; description?: string };
const ToastContext = createContext<((t: Omit<Toast, "id">) => void) | null>(null);

const TONES: Record<Tone, string> = {
  success: "border-emerald-200 bg-white [&_[data-dot]]:bg-emerald-500",
  error: "border-red-200 bg-white [&_[data-dot]]:bg-red-500",
  info: "border-slate-200 bg-white [&_[data-dot]]:bg-brand-500",
};

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const push = useCallback((t: Omit<Toast, "id">) => setToasts((ts) => [...ts.slice(-3), { ...t, id: next.current++ }]), []);
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div className="pointer-events-none fixed bottom-4 right-4 z-[60] flex w-80 flex-col gap-2">
        <div aria-live="polite" className="contents">
          {toasts.filter((t) => t.tone !== "error").map((t) => <ToastCard key={t.id} toast={t} onDismiss={dismiss} />)}
        </div>
        <div aria-live="assertive" className="contents">
          {toasts.filter((t) => t.tone === "error").map((t) => <ToastCard key={t.id} toast={t} onDismiss={dismiss} />)}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), toast.tone === "error" ? 8000 : 4000);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  return (
    <div role={toast.tone === "error" ? "alert" : "status"} className={`pointer-events-auto flex items-start gap-3 rounded-lg border px-3 py-2.5 text-sm shadow-lg ${TONES[toast.tone]}`}>
      <span data-dot className="mt-1.5 h-2 w-2 shrink-0 rounded-full" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-slate-900">{toast.title}</p>
        {toast.description && <p className="mt-0.5 text-slate-600">{toast.description}</p>}
      </div>
      <button type="button" aria-label="Dismiss" onClick={() => onDismiss(toast.id)} className="rounded p-0.5 text-slate-400 hover:text-slate-700">
        <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
    </div>
  );
}

export function useToast(): (t: Omit<Toast, "id">) => void {
  const push = useContext(ToastContext);
  if (!push) throw new Error("useToast needs a <ToastProvider> above it");
  return push;
}
