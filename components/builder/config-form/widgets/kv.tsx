"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { denseInputClass } from "@/components/ui/field";
import { ICONS, Icon } from "@/components/ui/icon";
import { CodeField, type CompleteFn } from "../code-field";
import type { WidgetProps } from "./types";

type Row = { key: string; value: string; raw?: unknown };

function rowsOf(value: unknown): Row[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value).map(([key, v]) => ({
    key,
    value: typeof v === "string" ? v : JSON.stringify(v),
    raw: typeof v === "string" ? undefined : v,
  }));
}

function objectOf(rows: Row[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const r of rows)
    if (r.key !== "") out[r.key] = r.raw !== undefined && JSON.stringify(r.raw) === r.value ? r.raw : r.value;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Key/value editor for headers, params and code inputs. Values are templates when the field says so. */
export function KvWidget({
  id,
  labelId,
  describedBy,
  invalid,
  value,
  onChange,
  readOnly,
  field,
  complete,
}: WidgetProps) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(value));
  const last = useRef(JSON.stringify(objectOf(rows) ?? null));
  useEffect(() => {
    const incoming = JSON.stringify(value ?? null);
    if (incoming !== last.current) {
      setRows(rowsOf(value));
      last.current = incoming;
    }
  }, [value]);
  const commit = (next: Row[]) => {
    setRows(next);
    const obj = objectOf(next);
    last.current = JSON.stringify(obj ?? null);
    onChange(obj);
  };
  const keyRe = useMemo(() => (field.keyPattern ? new RegExp(field.keyPattern) : null), [field.keyPattern]);
  const noun = field.key === "headers" ? "header" : field.key === "params" ? "parameter" : "input";
  return (
    <div id={id} role="group" aria-labelledby={labelId} aria-describedby={describedBy} className="space-y-1.5">
      {rows.length === 0 && <p className="text-xs text-slate-500">No {noun}s.</p>}
      {rows.map((row, i) => {
        const badKey = row.key !== "" && keyRe !== null && !keyRe.test(row.key);
        return (
          <div key={i} className="grid grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)_auto] items-start gap-1.5">
            <input
              className={`${denseInputClass} font-mono text-xs`}
              value={row.key}
              placeholder="Name"
              aria-label={`${field.title} ${i + 1} name`}
              aria-invalid={badKey || invalid || undefined}
              disabled={readOnly}
              onChange={(e) => commit(rows.map((r, j) => (j === i ? { ...r, key: e.target.value } : r)))}
            />
            {field.templates ? (
              <KvValue
                id={`${id}-v${i}`}
                label={`${field.title} ${i + 1} value`}
                value={row.value}
                readOnly={readOnly}
                complete={complete}
                onChange={(v) => commit(rows.map((r, j) => (j === i ? { ...r, value: v } : r)))}
              />
            ) : (
              <input
                className={denseInputClass}
                value={row.value}
                placeholder="Value"
                aria-label={`${field.title} ${i + 1} value`}
                disabled={readOnly}
                onChange={(e) => commit(rows.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)))}
              />
            )}
            {!readOnly && (
              <button
                type="button"
                className="grid h-8 w-8 place-items-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-red-600"
                aria-label={`Remove ${field.title} ${i + 1}`}
                onClick={() => commit(rows.filter((_, j) => j !== i))}
              >
                <Icon d={ICONS.x} className="h-3.5 w-3.5" strokeWidth={2.4} />
              </button>
            )}
            {badKey && (
              <p className="col-span-3 text-xs text-red-600">&quot;{row.key}&quot; is not a valid name here.</p>
            )}
          </div>
        );
      })}
      {!readOnly && (
        <button
          type="button"
          className="text-xs font-medium text-brand-700 hover:text-brand-600"
          onClick={() => setRows([...rows, { key: "", value: "" }])}
        >
          + Add {noun}
        </button>
      )}
    </div>
  );
}

function KvValue({
  id,
  label,
  value,
  onChange,
  readOnly,
  complete,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  readOnly: boolean;
  complete?: CompleteFn;
}) {
  const labelId = `${id}-label`;
  return (
    <div>
      <span id={labelId} className="sr-only">
        {label}
      </span>
      <CodeField
        id={id}
        labelledBy={labelId}
        value={value}
        onChange={onChange}
        singleLine
        templates
        complete={complete}
        readOnly={readOnly}
        placeholder="Value"
      />
    </div>
  );
}
