import { cn } from "./cn";
import type { HTMLAttributes, KeyboardEvent, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/** Cell padding and alignment are the table's: `md` for dense data (evaluation), `lg` for a few roomy rows (agents). */
const SIZES = {
  md: "[&_td]:px-3 [&_td]:py-2.5 [&_td]:align-top [&_th]:px-3 [&_th]:py-2",
  lg: "[&_td]:px-4 [&_td]:py-3 [&_td]:align-middle [&_th]:px-4 [&_th]:py-3",
} as const;

/**
 * A semantic table in a card. Rows that open something carry a link or button in a cell, or `onActivate` on the
 * row (then the row itself is focusable and Enter opens it). With `maxHeight` the body scrolls under a sticky header.
 */
export function Table({
  children,
  caption,
  size = "md",
  maxHeight,
  className = "",
}: {
  children: ReactNode;
  caption?: string;
  size?: keyof typeof SIZES;
  maxHeight?: string;
  className?: string;
}) {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={caption}
      className={cn("overflow-auto rounded-xl border border-slate-200 bg-white", className)}
      style={maxHeight ? { maxHeight } : undefined}
    >
      <table className={`w-full text-left text-sm ${SIZES[size]}`}>
        {caption && <caption className="sr-only">{caption}</caption>}
        {children}
      </table>
    </div>
  );
}

export function THead({ children, sticky = false }: { children: ReactNode; sticky?: boolean }) {
  return (
    <thead
      className={`border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500 ${sticky ? "sticky top-0 z-10 shadow-[0_1px_0_var(--color-slate-200)]" : ""}`}
    >
      {children}
    </thead>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" {...props} className={`font-medium ${className}`} />;
}

export function Tr({
  className = "",
  selected,
  onActivate,
  ...props
}: HTMLAttributes<HTMLTableRowElement> & {
  /** the row shown in a detail view next to the table */
  selected?: boolean;
  /** the row opens something: it becomes focusable, clickable and opens on Enter or Space */
  onActivate?: () => void;
}) {
  const activate = onActivate
    ? {
        tabIndex: 0,
        onClick: onActivate,
        onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => {
          if (e.target === e.currentTarget && (e.key === "Enter" || e.key === " ")) {
            e.preventDefault();
            onActivate();
          }
        },
      }
    : {};
  return (
    <tr
      {...activate}
      {...props}
      aria-selected={selected}
      className={`border-b border-slate-100 last:border-0 ${selected ? "bg-brand-50/70" : "hover:bg-slate-50"} ${onActivate ? "cursor-pointer focus-visible:bg-brand-50/40 focus-visible:outline-offset-[-2px]" : ""} ${className}`}
    />
  );
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td {...props} className={className} />;
}
