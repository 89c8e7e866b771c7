"use client";

import { useRef, type KeyboardEvent, type ReactNode } from "react";

/**
 * ARIA tabs (role tablist/tab/tabpanel, aria-selected, aria-controls) with a roving tabindex: Tab enters the list
 * on the selected tab, Arrow Left/Right move between tabs and select them, Home/End jump. Controlled: the page
 * decides the selected tab (e.g. from the URL) and renders the panel with `<TabPanel>`.
 */
export type TabItem = { id: string; label: ReactNode; badge?: ReactNode; disabled?: boolean };

/** Where a key moves the focus in a tab list (wrapping Arrow Left/Right, Home, End); null for any other key. */
export function tabAfterKey(ids: readonly string[], current: string, key: string): string | null {
  if (ids.length === 0) return null;
  const i = Math.max(0, ids.indexOf(current));
  if (key === "ArrowRight") return ids[(i + 1) % ids.length]!;
  if (key === "ArrowLeft") return ids[(i - 1 + ids.length) % ids.length]!;
  if (key === "Home") return ids[0]!;
  if (key === "End") return ids[ids.length - 1]!;
  return null;
}

const SIZES = {
  md: { list: "gap-1", tab: "px-3 py-2.5 text-sm" },
  /** the canvas' side panel */
  sm: { list: "gap-4", tab: "-mb-px pb-2 text-[13px]" },
} as const;

export function Tabs({
  tabs,
  selected,
  onSelect,
  label,
  idPrefix = "tab",
  size = "md",
  className = "",
}: {
  tabs: readonly TabItem[];
  selected: string;
  onSelect: (id: string) => void;
  label: string;
  idPrefix?: string;
  size?: keyof typeof SIZES;
  className?: string;
}) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const enabled = tabs.filter((t) => !t.disabled);
  const move = (e: KeyboardEvent<HTMLButtonElement>, id: string) => {
    const next = tabAfterKey(
      enabled.map((t) => t.id),
      id,
      e.key,
    );
    if (next === null) return;
    e.preventDefault();
    onSelect(next);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className={`flex overflow-x-auto ${SIZES[size].list} ${className}`}>
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
            className={`relative inline-flex shrink-0 items-center gap-2 whitespace-nowrap border-b-2 font-medium transition disabled:opacity-50 ${SIZES[size].tab} ${
              active
                ? "border-brand-600 text-brand-700"
                : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
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

export function TabPanel({
  id,
  idPrefix = "tab",
  children,
  className = "",
}: {
  id: string;
  idPrefix?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div
      role="tabpanel"
      id={`${idPrefix}-panel-${id}`}
      aria-labelledby={`${idPrefix}-${id}`}
      tabIndex={-1}
      className={`focus:outline-none ${className}`}
    >
      {children}
    </div>
  );
}
