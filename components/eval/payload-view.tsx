"use client";

import { useState } from "react";
import { describePayload, humanize, type Cell, type PayloadBlock } from "./payload-model";

/**
 * A structured answer payload for people (spec 2.5): item lists as tables with their fields, plain fields as a
 * definition list, values as chips; the raw JSON one click away ("Raw JSON", or R in the annotation view).
 */
export function PayloadView({ payload, compact = false, raw: rawControlled, onToggleRaw }: { payload: unknown; compact?: boolean; raw?: boolean; onToggleRaw?: () => void }) {
  const [rawLocal, setRawLocal] = useState(false);
  const raw = rawControlled ?? rawLocal;
  const toggle = onToggleRaw ?? (() => setRawLocal((r) => !r));
  const blocks = describePayload(payload);
  if (!blocks.length) return null;
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Structured answer</h4>
        <button type="button" aria-pressed={raw} onClick={toggle} className="rounded px-1.5 py-0.5 text-xs font-medium text-brand-700 hover:bg-brand-50">
          {raw ? "Formatted" : "Raw JSON"}
        </button>
      </div>
      {raw ? (
        <pre tabIndex={0} aria-label="Raw JSON of the payload" className="max-h-96 overflow-auto rounded-lg bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">{JSON.stringify(payload, null, 2)}</pre>
      ) : (
        blocks.map((b) => <Block key={`${b.kind}:${b.path}`} block={b} compact={compact} />)
      )}
    </div>
  );
}

function Block({ block, compact }: { block: PayloadBlock; compact: boolean }) {
  if (block.kind === "table") {
    return (
      <section aria-label={block.title}>
        <h5 className="mb-1 text-sm font-medium text-slate-800">
          {block.title} <span className="font-normal text-slate-500">· {block.total} item{block.total === 1 ? "" : "s"}</span>
        </h5>
        <div tabIndex={0} aria-label={`${block.title} (scrolls sideways)`} role="region" className="overflow-x-auto rounded-lg border border-slate-200">
          <table className="w-full text-left text-xs">
            <caption className="sr-only">{block.title}</caption>
            <thead className="bg-slate-50 text-slate-500">
              <tr>
                {block.columns.map((c) => (
                  <th key={c} scope="col" className="whitespace-nowrap px-2 py-1.5 font-medium">
                    {humanize(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((r, i) => (
                <tr key={i} className="border-t border-slate-100">
                  {block.columns.map((c) => (
                    <td key={c} className={`px-2 py-1.5 align-top ${compact ? "max-w-40" : "max-w-64"}`}>
                      <CellView cell={r[c]!} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {block.total > block.rows.length && <p className="mt-1 text-xs text-slate-500">Showing {block.rows.length} of {block.total}; the raw JSON has all.</p>}
      </section>
    );
  }
  if (block.kind === "values") {
    return (
      <section aria-label={block.title}>
        <h5 className="mb-1 text-sm font-medium text-slate-800">{block.title}</h5>
        <ul className="flex flex-wrap gap-1">
          {block.values.map((v, i) => (
            <li key={i} className="rounded-md bg-slate-100 px-1.5 py-0.5 text-xs">
              <CellView cell={v} />
            </li>
          ))}
        </ul>
      </section>
    );
  }
  return (
    <section aria-label={block.title}>
      {block.path && <h5 className="mb-1 text-sm font-medium text-slate-800">{block.title}</h5>}
      <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-3 gap-y-1 text-xs">
        {block.entries.map((e) => (
          <div key={e.key} className="contents">
            <dt className="text-slate-500">{e.label}</dt>
            <dd className="min-w-0 break-words text-slate-800">
              <CellView cell={e.value} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function CellView({ cell }: { cell: Cell }) {
  switch (cell.kind) {
    case "link":
      return (
        <a href={cell.href} target="_blank" rel="noreferrer noopener" className="break-all text-brand-700 underline">
          {cell.text}
        </a>
      );
    case "image":
      return (
        <a href={cell.href} target="_blank" rel="noreferrer noopener" className="text-brand-700 underline">
          image
        </a>
      );
    case "number":
      return <span className="tabular-nums">{cell.text}</span>;
    case "empty":
      return <span className="text-slate-500">{cell.text}</span>;
    case "list":
      return (
        <span className="inline-flex flex-wrap gap-1">
          {cell.items.map((x, i) => (
            <span key={i} className="rounded bg-slate-100 px-1 py-px text-[11px] text-slate-700">
              {x}
            </span>
          ))}
        </span>
      );
    case "json":
      return <code className="break-all text-[11px] text-slate-600">{cell.text}</code>;
    default:
      return <span>{cell.text}</span>;
  }
}
