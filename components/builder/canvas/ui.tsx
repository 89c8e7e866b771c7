"use client";

import { useId, type ButtonHTMLAttributes, type ReactNode } from "react";

/** A tooltip shown on hover and keyboard focus of its trigger (CSS only). */
export function Tip({
  text,
  children,
  side = "bottom",
  align = "center",
  id,
}: {
  text: ReactNode;
  children: ReactNode;
  side?: "bottom" | "top" | "right";
  align?: "center" | "end";
  id?: string;
}) {
  const pos =
    side === "right"
      ? "left-full ml-2 top-1/2 -translate-y-1/2"
      : `${side === "top" ? "bottom-full mb-2" : "top-full mt-2"} ${align === "end" ? "right-0" : "left-1/2 -translate-x-1/2"}`;
  return (
    <span className="group/tip relative inline-flex">
      {children}
      <span
        id={id}
        role="tooltip"
        className={`pointer-events-none absolute z-50 w-max max-w-64 rounded-md bg-slate-900 px-2 py-1 text-xs font-medium text-white opacity-0 shadow-lg transition-opacity delay-150 group-focus-within/tip:opacity-100 group-hover/tip:opacity-100 ${pos}`}
      >
        {text}
      </span>
    </span>
  );
}

export function IconButton({
  label,
  shortcut,
  children,
  className = "",
  tipSide,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { label: string; shortcut?: string; children: ReactNode; tipSide?: "bottom" | "right" }) {
  return (
    <Tip text={shortcut ? `${label} (${shortcut})` : label} side={tipSide}>
      <button
        type="button"
        aria-label={label}
        {...props}
        className={`grid h-8 w-8 place-items-center rounded-lg text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent ${className}`}
      >
        {children}
      </button>
    </Tip>
  );
}

export function Icon({ d, className = "h-4 w-4" }: { d: string; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}

export const ICONS = {
  undo: "M9 14L4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3",
  redo: "M15 14l5-5-5-5M20 9H9a5 5 0 0 0 0 10h3",
  layout: "M3 5h6v5H3zM15 3h6v5h-6zM15 16h6v5h-6zM9 7.5h3v11h3M12 5.5h3",
  fit: "M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5",
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  upload: "M12 20V9M7 14l5-5 5 5M5 4h14",
  history: "M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 3",
  play: "M7 5v14l11-7z",
  back: "M15 18l-6-6 6-6",
  x: "M6 6l12 12M18 6L6 18",
  trash: "M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3",
  copy: "M9 9h10v10H9zM5 15V5h10",
  check: "M5 12l5 5 9-10",
  plus: "M12 5v14M5 12h14",
  collapse: "M15 6l-6 6 6 6M20 4v16",
  expand: "M9 6l6 6-6 6M4 4v16",
};

/** A visually hidden live region announcing changes to screen readers. */
export function LiveRegion({ text }: { text: string }) {
  const id = useId();
  return (
    <span id={id} className="sr-only" aria-live="polite">
      {text}
    </span>
  );
}
