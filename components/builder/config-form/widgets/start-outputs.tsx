"use client";

import { useEffect, useState } from "react";
import { denseInputClass } from "@/components/ui/field";
import { ICONS, Icon } from "@/components/ui/icon";
import { valueMatchesType, type StartOutputType } from "@/server/workflow/contract";
import type { WidgetProps } from "./types";

type OutputRow = {
  name?: unknown;
  type?: unknown;
  required?: unknown;
  default?: unknown;
  description?: unknown;
  [k: string]: unknown;
};

function defaultText(row: OutputRow): string {
  if (!Object.hasOwn(row, "default")) return "";
  return typeof row.default === "string" && row.type === "string" ? row.default : JSON.stringify(row.default);
}

/** Parses a default typed into the editor according to the declared type; undefined removes it. */
export function parseDefault(type: string, text: string): { ok: true; value: unknown } | { ok: false } {
  if (type === "string") return { ok: true, value: text };
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    const v: unknown = JSON.parse(text);
    return valueMatchesType(type as StartOutputType, v) ? { ok: true, value: v } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** The start node's declared inputs: name, type, required, default (+ description kept as is). */
export function StartOutputsWidget({ id, labelId, describedBy, value, onChange, readOnly, field }: WidgetProps) {
  const rows: OutputRow[] = Array.isArray(value) ? (value as OutputRow[]) : [];
  const types = field.itemTypes ?? ["string"];
  const set = (i: number, patch: Partial<OutputRow>, drop?: string) => {
    const next = rows.map((r, j) => {
      if (j !== i) return r;
      const merged: OutputRow = { ...r, ...patch };
      if (drop) delete merged[drop];
      return merged;
    });
    onChange(next.length ? next : undefined);
  };
  return (
    <div id={id} role="group" aria-labelledby={labelId} aria-describedby={describedBy} className="space-y-2">
      {rows.length === 0 && (
        <p className="text-xs text-slate-500">
          No inputs. A run can still start; templates cannot use {"{{start.…}}"}.
        </p>
      )}
      {rows.map((row, i) => (
        <StartOutputRow
          key={i}
          index={i}
          row={row}
          types={types}
          readOnly={readOnly}
          onPatch={(p, drop) => set(i, p, drop)}
          onRemove={() => onChange(rows.filter((_, j) => j !== i).length ? rows.filter((_, j) => j !== i) : undefined)}
        />
      ))}
      {!readOnly && (
        <button
          type="button"
          className="text-xs font-medium text-brand-700 hover:text-brand-600"
          onClick={() => {
            const taken = new Set(rows.map((r) => r.name));
            let n = rows.length + 1;
            while (taken.has(`input_${n}`)) n++;
            onChange([...rows, { name: `input_${n}`, type: "string", required: false, default: "" }]);
          }}
        >
          + Add input
        </button>
      )}
    </div>
  );
}

function StartOutputRow({
  index,
  row,
  types,
  readOnly,
  onPatch,
  onRemove,
}: {
  index: number;
  row: OutputRow;
  types: string[];
  readOnly: boolean;
  onPatch: (p: Partial<OutputRow>, drop?: string) => void;
  onRemove: () => void;
}) {
  const type = typeof row.type === "string" ? row.type : "string";
  const [defText, setDefText] = useState(defaultText(row));
  const [defError, setDefError] = useState(false);
  useEffect(() => {
    setDefText(defaultText(row));
    setDefError(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [row.default, row.type]);
  const n = index + 1;
  const name = typeof row.name === "string" ? row.name : "";
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50/60 p-2">
      <div className="grid grid-cols-[minmax(0,1fr)_7rem_auto] items-center gap-1.5">
        <input
          className={`${denseInputClass} font-mono text-xs`}
          value={name}
          aria-label={`Input ${n} name`}
          placeholder="name"
          disabled={readOnly}
          onChange={(e) => onPatch({ name: e.target.value })}
        />
        <select
          className={denseInputClass}
          value={type}
          aria-label={`Input ${n} type`}
          disabled={readOnly}
          onChange={(e) => {
            const t = e.target.value;
            const keep = Object.hasOwn(row, "default") && valueMatchesType(t as StartOutputType, row.default);
            onPatch(
              { type: t, ...(t === "string" && !keep ? { default: "" } : {}) },
              keep || t === "string" ? undefined : "default",
            );
          }}
        >
          {types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        {!readOnly && (
          <button
            type="button"
            className="grid h-8 w-8 place-items-center rounded-lg text-slate-500 hover:bg-white hover:text-red-600"
            aria-label={`Remove input ${n}`}
            onClick={onRemove}
          >
            <Icon d={ICONS.x} className="h-3.5 w-3.5" strokeWidth={2.4} />
          </button>
        )}
      </div>
      <div className="mt-1.5 grid grid-cols-[auto_minmax(0,1fr)] items-center gap-2">
        <label className="flex items-center gap-1.5 text-xs text-slate-600">
          <input
            type="checkbox"
            className="h-3.5 w-3.5 rounded border-slate-300 accent-brand-600"
            checked={row.required === true}
            disabled={readOnly}
            onChange={(e) => onPatch({ required: e.target.checked })}
          />
          Required
        </label>
        {type === "boolean" ? (
          <select
            className={denseInputClass}
            aria-label={`Input ${n} default`}
            value={row.default === true ? "true" : row.default === false ? "false" : ""}
            disabled={readOnly}
            onChange={(e) =>
              e.target.value === "" ? onPatch({}, "default") : onPatch({ default: e.target.value === "true" })
            }
          >
            <option value="">No default</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : (
          <input
            className={`${denseInputClass} ${type === "string" ? "" : "font-mono text-xs"}`}
            aria-label={`Input ${n} default`}
            aria-invalid={defError || undefined}
            placeholder={
              type === "string"
                ? "Default (empty string)"
                : type === "object"
                  ? '{"key": "value"}'
                  : type === "array"
                    ? "[1, 2]"
                    : "Default"
            }
            value={defText}
            disabled={readOnly}
            onChange={(e) => {
              setDefText(e.target.value);
              const parsed = parseDefault(type, e.target.value);
              setDefError(!parsed.ok);
              if (parsed.ok) parsed.value === undefined ? onPatch({}, "default") : onPatch({ default: parsed.value });
            }}
          />
        )}
      </div>
      {defError && <p className="mt-1 text-xs text-red-600">Not a {type} value; the default is unchanged.</p>}
    </div>
  );
}
