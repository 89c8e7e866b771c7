"use client";

import { memo, useEffect, useState } from "react";
import { ICONS, Icon } from "@/components/ui/icon";
import { Tip } from "@/components/ui/tooltip";
import { NODE_CONTRACTS, type NodeType } from "@/server/workflow/contract";
import { KIND_STYLES } from "../node-kinds";

const COLLAPSED_KEY = "flowbench:palette-collapsed";

export const DRAG_MIME = "application/x-flowbench-node";

const GROUPS: { title: string; types: NodeType[] }[] = [
  { title: "Flow", types: ["start", "end", "condition"] },
  { title: "AI & code", types: ["llm", "code"] },
  { title: "Integrations", types: ["http"] },
  { title: "Memory", types: ["memory_load", "memory_save"] },
];

function PaletteImpl({ onAdd, disabled }: { onAdd: (type: NodeType) => void; disabled: boolean }) {
  const [collapsed, setCollapsed] = useState(false);
  useEffect(() => setCollapsed(localStorage.getItem(COLLAPSED_KEY) === "1"), []);
  const toggle = () => {
    setCollapsed((c) => {
      localStorage.setItem(COLLAPSED_KEY, c ? "0" : "1");
      return !c;
    });
  };
  return (
    <nav
      aria-label="Node palette"
      className={`flex h-full shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] ${collapsed ? "w-14" : "w-56"}`}
    >
      <div
        className={`flex items-start gap-2 border-b border-slate-100 py-3 ${collapsed ? "justify-center px-2" : "px-4"}`}
      >
        {!collapsed && (
          <div className="min-w-0 flex-1">
            <h2 className="text-[13px] font-semibold text-slate-900">Nodes</h2>
            <p className="mt-0.5 text-xs text-slate-500">
              {disabled ? "Read-only: your role cannot edit." : "Drag onto the canvas, or press Enter."}
            </p>
          </div>
        )}
        <button
          type="button"
          onClick={toggle}
          aria-label={collapsed ? "Expand the node palette" : "Collapse the node palette"}
          aria-expanded={!collapsed}
          className="grid h-7 w-7 shrink-0 place-items-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-700"
        >
          <Icon d={collapsed ? ICONS.expand : ICONS.collapse} className="h-3.5 w-3.5" />
        </button>
      </div>
      <div className={`flex-1 space-y-4 overflow-y-auto py-3 ${collapsed ? "px-2" : "px-3"}`}>
        {GROUPS.map((g) => (
          <section key={g.title} aria-labelledby={`palette-${g.title}`}>
            <h3
              id={`palette-${g.title}`}
              className={
                collapsed ? "sr-only" : "px-1 pb-1.5 text-[11px] font-semibold uppercase tracking-wider text-slate-500"
              }
            >
              {g.title}
            </h3>
            <ul className="space-y-1">
              {g.types.map((type) => {
                const c = NODE_CONTRACTS[type];
                const s = KIND_STYLES[type];
                const button = (
                  <button
                    type="button"
                    draggable={!disabled}
                    disabled={disabled}
                    data-testid={`palette-${type}`}
                    onDragStart={(e) => {
                      e.dataTransfer.setData(DRAG_MIME, type);
                      e.dataTransfer.effectAllowed = "move";
                    }}
                    onClick={() => onAdd(type)}
                    className={`group flex w-full cursor-grab items-start gap-2.5 rounded-xl border border-transparent text-left transition hover:border-slate-200 hover:bg-slate-50 hover:shadow-xs active:cursor-grabbing disabled:cursor-not-allowed disabled:opacity-60 ${collapsed ? "justify-center p-1.5" : "px-2 py-2"}`}
                  >
                    <span
                      className={`grid h-7 w-7 shrink-0 place-items-center rounded-lg ${s.tile} ${collapsed ? "" : "mt-0.5"}`}
                    >
                      {s.icon}
                    </span>
                    <span className="sr-only">Add node:</span>
                    {collapsed && <span className="sr-only">{c.title}</span>}
                    {!collapsed && (
                      <span className="min-w-0">
                        <span className="block text-[13px] font-medium leading-tight text-slate-800">{c.title}</span>
                        <span className="mt-0.5 block text-[11.5px] leading-snug text-slate-500">{c.description}</span>
                      </span>
                    )}
                  </button>
                );
                return (
                  <li key={type}>
                    {collapsed ? (
                      <Tip side="right" text={c.title}>
                        {button}
                      </Tip>
                    ) : (
                      button
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </nav>
  );
}

export const Palette = memo(PaletteImpl);
