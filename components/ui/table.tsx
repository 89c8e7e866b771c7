import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/** A semantic table in a card; rows that open something are links or buttons inside a cell (keyboard reachable). */
export function Table({ children, caption, className = "" }: { children: ReactNode; caption?: string; className?: string }) {
  return (
    <div tabIndex={0} role="region" aria-label={caption} className={`overflow-x-auto rounded-xl border border-slate-200 bg-white ${className}`}>
      <table className="w-full text-left text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        {children}
      </table>
    </div>
  );
}

export function THead({ children }: { children: ReactNode }) {
  return <thead className="border-b border-slate-200 bg-slate-50/80 text-xs font-medium uppercase tracking-wide text-slate-500">{children}</thead>;
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" {...props} className={`px-3 py-2 font-medium ${className}`} />;
}

export function Tr({ className = "", selected, ...props }: HTMLAttributes<HTMLTableRowElement> & { selected?: boolean }) {
  return <tr {...props} aria-selected={selected} className={`border-b border-slate-100 last:border-0 ${selected ? "bg-brand-50/70" : "hover:bg-slate-50"} ${className}`} />;
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td {...props} className={`px-3 py-2.5 align-top ${className}`} />;
}
