"use client";

import { useRef, type KeyboardEvent, type ReactNode } from "react";

/**
 * ARIA tabs (role tablist/tab/tabpanel, aria-selected, aria-controls) with a roving tabindex: Tab enters the list
 * on the selected tab, Arrow Left/Right move between tabs and select them, Home/End jump. Controlled: the page
 * decides the selected tab (e.g. from the URL) and renders the panel with `<TabPanel>`.
 */
export type TabItem = { id: string; label: ReactNode; badge?: ReactNode; disabled?: boolean };

export function Tabs({ tabs, selected, onSelect, label, idPrefix = "tab", className = "" }: { tabs: readonly TabItem[]; selected: string; onSelect: (id: string) => void; label: string; idPrefix?: string; className?: string }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const enabled = tabs.filter((t) => !t.disabled);
  const move = (e: KeyboardEvent<HTMLButtonElement>, id: string) => {
    const i = enabled.findIndex((t) => t.id === id);
    let next: TabItem | undefined;
    if (e.key === "ArrowRight") next = enabled[(i + 1) % enabled.length];
    else if (e.key === "ArrowLeft") next = enabled[(i - 1 + enabled.length) % enabled.length];
    else if (e.key === "Home") next = enabled[0];
    else if (e.key === "End") next = enabled.at(-1);
    if (!next) return;
    e.preventDefault();
    onSelect(next.id);
    refs.current[next.id]?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className={`flex gap-1 overflow-x-auto ${className}`}>
      {tabs.map((t) => {
        const active = t.id === selected;
        return (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-${t.id}`}
            aria-selected={active}
            aria-controls={`${idPrefix}-panel-${t.id}`}
            tabIndex={active ? 0 : -1}
            disabled={t.disabled}
            onClick={() => onSelect(t.id)}
            onKeyDown={(e) => move(e, t.id)}
            className={`relative inline-flex shrink-0 items-center gap-2 whitespace-nowrap border-b-2 px-3 py-2.5 text-sm font-medium transition disabled:opacity-50 ${
              active ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
            }`}
          >
            {t.label}
            {t.badge}
          </button>
        );
      })}
    </div>
  );
}

export function TabPanel({ id, idPrefix = "tab", children, className = "" }: { id: string; idPrefix?: string; children: ReactNode; className?: string }) {
  return (
    <div role="tabpanel" id={`${idPrefix}-panel-${id}`} aria-labelledby={`${idPrefix}-${id}`} tabIndex={-1} className={`focus:outline-none ${className}`}>
      {children}
    </div>
  );
}
