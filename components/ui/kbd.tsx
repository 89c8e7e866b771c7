import type { ReactNode } from "react";

/** A keyboard key as people see it in shortcut hints. */
export function Kbd({ children }: { children: ReactNode }) {
  return (
    <kbd className="rounded border border-slate-300 bg-white px-1.5 py-0.5 font-mono text-[11px] font-medium text-slate-700 shadow-[0_1px_0_rgb(203_213_225)]">
      {children}
    </kbd>
  );
}
