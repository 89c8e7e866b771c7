"use client";

import { useState } from "react";
import { cellOf, describePayload, humanize, type Cell, type Field, type PayloadBlock } from "./payload-model";

/**
 * A structured answer payload for people (spec 2.5): item lists as tables with their fields, plain fields as a
 * definition list, values as chips, nested values inside cells as small key/value lists and tables; the raw JSON one
 * click away ("Raw JSON", or R in the annotation view).
 */
export function PayloadView({
  payload,
  compact = false,
  title = "Structured answer",
  raw: rawControlled,
  onToggleRaw,
}: {
  payload: unknown;
  compact?: boolean;
  /** the heading above it ("Input", "Output" in a trace step) */
  title?: string;
  raw?: boolean;
  onToggleRaw?: () => void;
}) {
  const [rawLocal, setRawLocal] = useState(false);
  const raw = rawControlled ?? rawLocal;
  const toggle = onToggleRaw ?? (() => setRawLocal((r) => !r));
  const blocks = describePayload(payload);
  if (!blocks.length) return null;
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h4>
        <button
          type="button"
          aria-pressed={raw}
          aria-label={`Raw JSON of the ${title.toLowerCase()}`}
          onClick={toggle}
          className="rounded px-1.5 py-0.5 text-xs font-medium text-brand-700 hover:bg-brand-50"
        >
          {raw ? "Formatted" : "Raw JSON"}
        </button>
      </div>
      {raw ? (
        <pre
          tabIndex={0}
          aria-label={`Raw JSON of the ${title.toLowerCase()}`}
          className="max-h-96 overflow-auto rounded-lg bg-slate-900 p-3 text-xs leading-relaxed text-slate-100"
        >
          {JSON.stringify(payload, null, 2)}
        </pre>
      ) : (
        blocks.map((b) => <Block key={`${b.kind}:${b.path}`} block={b} compact={compact} />)
      )}
    </div>
  );
}

/** One value of any shape, for people (a trace's input field, a setting): the payload's cell rendering. */
export function ValueView({ value }: { value: unknown }) {
  return <CellView cell={cellOf(value)} />;
}

function Block({ block, compact }: { block: PayloadBlock; compact: boolean }) {
  if (block.kind === "table") {
    return (
      <section aria-label={block.title}>
        <h5 className="mb-1 text-sm font-medium text-slate-800">
          {block.title}{" "}
          <span className="font-normal text-slate-500">
            · {block.total} item{block.total === 1 ? "" : "s"}
          </span>
        </h5>
        <div
          tabIndex={0}
          aria-label={`${block.title} (scrolls sideways)`}
          role="region"
          className="overflow-x-auto rounded-lg border border-slate-200"
        >
          <RecordsTable
            caption={block.title}
            columns={block.columns}
            rows={block.rows}
            cellClass={compact ? "max-w-40" : "max-w-64"}
          />
        </div>
        {block.total > block.rows.length && (
          <p className="mt-1 text-xs text-slate-500">
            Showing {block.rows.length} of {block.total}; the raw JSON has all.
          </p>
        )}
      </section>
    );
  }
  if (block.kind === "values") {
    return (
      <section aria-label={block.title}>
        <h5 className="mb-1 text-sm font-medium text-slate-800">{block.title}</h5>
        <Chips items={block.values} total={block.total} />
      </section>
    );
  }
  return (
    <section aria-label={block.title}>
      {block.path && <h5 className="mb-1 text-sm font-medium text-slate-800">{block.title}</h5>}
      <Fields entries={block.entries} />
    </section>
  );
}

function RecordsTable({
  caption,
  columns,
  rows,
  cellClass,
  nested = false,
}: {
  caption: string;
  columns: string[];
  rows: Array<Record<string, Cell>>;
  cellClass?: string;
  nested?: boolean;
}) {
  return (
    <table className={`w-full text-left ${nested ? "text-[11px]" : "text-xs"}`}>
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-slate-50 text-slate-500">
        <tr>
          {columns.map((c) => (
            <th
              key={c}
              scope="col"
              className={`whitespace-nowrap font-medium ${nested ? "px-1.5 py-1" : "px-2 py-1.5"}`}
            >
              {humanize(c)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} className="border-t border-slate-100">
            {columns.map((c) => (
              <td key={c} className={`align-top ${nested ? "px-1.5 py-1" : "px-2 py-1.5"} ${cellClass ?? ""}`}>
                <CellView cell={r[c]!} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Fields({ entries, nested = false }: { entries: Field[]; nested?: boolean }) {
  return (
    <dl
      className={`grid gap-x-3 gap-y-1 ${nested ? "grid-cols-[minmax(4rem,auto)_1fr] text-[11px]" : "grid-cols-[minmax(6rem,auto)_1fr] text-xs"}`}
    >
      {entries.map((e) => (
        <div key={e.key} className="contents">
          <dt className="text-slate-500">{e.label}</dt>
          <dd className="min-w-0 break-words text-slate-800">
            <CellView cell={e.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Chips({ items, total }: { items: Cell[]; total: number }) {
  return (
    <ul className="flex flex-wrap items-start gap-1">
      {items.map((v, i) => (
        <li
          key={i}
          className={
            v.kind === "record" || v.kind === "records" || v.kind === "list"
              ? "rounded-md border border-slate-200 bg-white p-1.5 text-xs"
              : "rounded-md bg-slate-100 px-1.5 py-0.5 text-xs"
          }
        >
          <CellView cell={v} />
        </li>
      ))}
      {total > items.length && (
        <li className="px-1 py-0.5 text-xs text-slate-500">+{total - items.length} more (raw JSON)</li>
      )}
    </ul>
  );
}

function More({ shown, total }: { shown: number; total: number }) {
  return total > shown ? <p className="mt-0.5 text-[11px] text-slate-500">+{total - shown} more (raw JSON)</p> : null;
}

export function CellView({ cell }: { cell: Cell }) {
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
    case "more":
      return <span className="italic text-slate-500">{cell.text}</span>;
    case "list":
      return (
        <span className="inline-flex flex-wrap items-start gap-1">
          {cell.items.map((x, i) =>
            x.kind === "record" || x.kind === "records" || x.kind === "list" ? (
              <span key={i} className="block rounded border border-slate-200 bg-white p-1">
                <CellView cell={x} />
              </span>
            ) : (
              <span key={i} className="rounded bg-slate-100 px-1 py-px text-[11px] text-slate-700">
                <CellView cell={x} />
              </span>
            ),
          )}
          {cell.total > cell.items.length && (
            <span className="px-1 text-[11px] text-slate-500">+{cell.total - cell.items.length} more</span>
          )}
        </span>
      );
    case "record":
      return (
        <div className="rounded border border-slate-200 bg-slate-50/60 px-1.5 py-1">
          <Fields entries={cell.entries} nested />
          <More shown={cell.entries.length} total={cell.total} />
        </div>
      );
    case "records":
      return (
        <div className="overflow-x-auto rounded border border-slate-200 bg-white">
          <RecordsTable caption={cell.text} columns={cell.columns} rows={cell.rows} nested />
          <More shown={cell.rows.length} total={cell.total} />
        </div>
      );
    default:
      return <span>{cell.text}</span>;
  }
}
