"use client";

/** Widget renderers for the generic config form, one per `x-widget` of the contract. */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { denseInputClass } from "@/components/ui/field";
import { ICONS, Icon } from "@/components/ui/icon";
import { valueMatchesType, type StartOutputType } from "@/server/workflow/contract";
import { CodeField, type CompleteFn } from "./code-field";
import type { FieldDescriptor } from "./form-model";

export interface WidgetProps {
  field: FieldDescriptor;
  /** DOM id of the control (labels point at it). */
  id: string;
  labelId: string;
  describedBy?: string;
  invalid: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
  readOnly: boolean;
  complete?: CompleteFn;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function TextWidget({ id, describedBy, invalid, value, onChange, readOnly, field }: WidgetProps) {
  return (
    <input
      id={id}
      className={denseInputClass}
      value={asText(value)}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      disabled={readOnly}
      placeholder={typeof field.default === "string" ? field.default : undefined}
      onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
    />
  );
}

export function TemplateWidget({
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
  return (
    <CodeField
      id={id}
      labelledBy={labelId}
      describedBy={describedBy}
      invalid={invalid}
      value={asText(value)}
      onChange={(v) => onChange(v === "" ? undefined : v)}
      singleLine={field.widget === "template"}
      minLines={field.widget === "template" ? 1 : 3}
      templates
      complete={complete}
      readOnly={readOnly}
      placeholder={
        typeof field.default === "string"
          ? field.default
          : field.widget === "template"
            ? "Type {{ to insert an upstream value"
            : "Type {{ to insert an upstream value…"
      }
    />
  );
}

export function CelWidget({ id, labelId, describedBy, invalid, value, onChange, readOnly, complete }: WidgetProps) {
  return (
    <CodeField
      id={id}
      labelledBy={labelId}
      describedBy={describedBy}
      invalid={invalid}
      value={asText(value)}
      onChange={(v) => onChange(v === "" ? undefined : v)}
      minLines={2}
      mono
      complete={complete}
      readOnly={readOnly}
      placeholder='e.g. http_1.status == 200 && start.query != ""'
    />
  );
}

export function PythonWidget({ id, labelId, describedBy, invalid, value, onChange, readOnly }: WidgetProps) {
  return (
    <CodeField
      id={id}
      labelledBy={labelId}
      describedBy={describedBy}
      invalid={invalid}
      value={asText(value)}
      onChange={(v) => onChange(v === "" ? undefined : v)}
      language="python"
      minLines={8}
      readOnly={readOnly}
      placeholder={"# inputs is a dict; assign the output to result\nresult = inputs"}
    />
  );
}

export function NumberWidget({ id, describedBy, invalid, value, onChange, readOnly, field }: WidgetProps) {
  const [text, setText] = useState(value === undefined ? "" : String(value));
  useEffect(() => {
    // Follow outside changes (undo, restore) unless they are what the text already says.
    if (value === undefined ? text !== "" : Number(text) !== value) setText(value === undefined ? "" : String(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="number"
        inputMode="decimal"
        className={`${denseInputClass} tabular-nums`}
        value={text}
        min={field.minimum}
        max={field.maximum}
        step={field.step ?? "any"}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        disabled={readOnly}
        placeholder={field.default !== undefined ? `${String(field.default)} (default)` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value === "") onChange(undefined);
          else if (Number.isFinite(e.target.valueAsNumber)) onChange(e.target.valueAsNumber);
        }}
      />
      {field.unit && <span className="shrink-0 text-xs text-slate-500">{field.unit}</span>}
    </div>
  );
}

export function SelectWidget({ id, describedBy, invalid, value, onChange, readOnly, field }: WidgetProps) {
  const current = value === undefined ? "" : String(value);
  const options = field.options ?? [];
  return (
    <select
      id={id}
      className={denseInputClass}
      value={current}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      disabled={readOnly}
      onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
    >
      <option value="">{field.default !== undefined ? `Default (${String(field.default)})` : "—"}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
      {current !== "" && !options.some((o) => o.value === current) && (
        <option value={current}>{current} (invalid)</option>
      )}
    </select>
  );
}

/** For condition trueTarget/falseTarget: the node's outgoing edge targets. */
export function NodeRefWidget({
  id,
  describedBy,
  invalid,
  value,
  onChange,
  readOnly,
  targets,
}: WidgetProps & { targets: string[] }) {
  const current = typeof value === "string" ? value : "";
  return (
    <select
      id={id}
      className={denseInputClass}
      value={current}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      disabled={readOnly}
      onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
    >
      <option value="">From the edge handle</option>
      {targets.map((t) => (
        <option key={t} value={t}>
          {t}
        </option>
      ))}
      {current !== "" && !targets.includes(current) && <option value={current}>{current} (not connected)</option>}
    </select>
  );
}

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

/** JSON editor: the value is whatever parses; while the text does not parse the config keeps its last value. */
export function JsonWidget({ id, labelId, describedBy, invalid, value, onChange, readOnly }: WidgetProps) {
  const pretty = (v: unknown) => (v === undefined ? "" : JSON.stringify(v, null, 2));
  const [text, setText] = useState(() => pretty(value));
  const [error, setError] = useState<string | null>(null);
  const errId = useId();
  useEffect(() => {
    // Runs when the config value changes: our own edits parse to it already; anything else (undo) replaces the text.
    let same = false;
    try {
      same = text.trim() === "" ? value === undefined : JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
    } catch {
      same = false;
    }
    if (!same) {
      setText(pretty(value));
      setError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <div>
      <CodeField
        id={id}
        labelledBy={labelId}
        describedBy={[describedBy, error ? errId : ""].filter(Boolean).join(" ") || undefined}
        invalid={invalid || !!error}
        value={text}
        language="json"
        minLines={4}
        readOnly={readOnly}
        placeholder="JSON value"
        onChange={(t) => {
          setText(t);
          if (t.trim() === "") {
            setError(null);
            onChange(undefined);
            return;
          }
          try {
            const parsed: unknown = JSON.parse(t);
            setError(null);
            onChange(parsed);
          } catch (e) {
            setError(e instanceof Error ? e.message : "Invalid JSON");
          }
        }}
      />
      {error && (
        <p id={errId} className="mt-1 text-xs text-red-600">
          Not valid JSON yet ({error}); the last valid value is kept.
        </p>
      )}
    </div>
  );
}

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
