"use client";

import { ICONS, Icon } from "@/components/ui/icon";

/** Export a version's samples as JSON, JSON Lines or CSV (the REST export, as a download). */
export function ExportMenu({ setId, version }: { setId: string; version: number }) {
  const href = (format: string) =>
    `/api/eval/sets/${encodeURIComponent(setId)}/versions/${version}/export?format=${format}`;
  return (
    <details className="relative">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
        Export
        <Icon d={ICONS.chevronDown} className="h-3.5 w-3.5" strokeWidth={2} />
      </summary>
      <ul className="absolute right-0 z-20 mt-1 w-44 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
        {(
          [
            ["json", "JSON"],
            ["jsonl", "JSON Lines"],
            ["csv", "CSV (spreadsheets)"],
          ] as const
        ).map(([f, label]) => (
          <li key={f}>
            <a
              href={href(f)}
              download
              className="block rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
