import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Tip } from "./tooltip";

/** A square button that shows only an icon: its `label` is the accessible name and the tooltip (with the shortcut, if any). */
export function IconButton({
  label,
  shortcut,
  children,
  className = "",
  tipSide,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  label: string;
  shortcut?: string;
  children: ReactNode;
  tipSide?: "bottom" | "right";
}) {
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
