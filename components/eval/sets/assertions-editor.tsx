"use client";

import { type Dispatch, type SetStateAction, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import type { Vocabulary } from "../types";
import type { Assertion } from "./use-sample-form";

/** A sample's rule assertions; each type's fields come from the server's rule vocabulary. */
export function AssertionsEditor({
  assertions,
  setAssertions,
  rules,
  error,
  readOnly,
}: {
  assertions: Assertion[];
  setAssertions: Dispatch<SetStateAction<Assertion[]>>;
  rules: Rule[];
  error: string | undefined;
  readOnly: boolean;
}) {
  return (
    <fieldset className="rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-800">Rule assertions</legend>
      <p className="text-xs text-slate-500">
        Checked by the machine on every answer; they only suggest, a person decides.
      </p>
      <div className="mt-2 space-y-2">
        {assertions.map((a, i) => (
          <AssertionRow
            key={i}
            index={i}
            value={a}
            rules={rules}
            onChange={(next) => setAssertions((as) => as.map((x, j) => (j === i ? next : x)))}
            onRemove={() => setAssertions((as) => as.filter((_, j) => j !== i))}
          />
        ))}
      </div>
      {error && <p className="mt-1 text-xs text-red-700">{error}</p>}
      {!readOnly && (
        <Button
          size="sm"
          variant="secondary"
          className="mt-2"
          onClick={() => setAssertions((as) => [...as, { type: "contains", value: "" }])}
        >
          Add assertion
        </Button>
      )}
    </fieldset>
  );
}

type Rule = Vocabulary["rules"][number];

/** One rule assertion: its type, then the fields that type takes (from the server's vocabulary, read from the schema). */
function AssertionRow({
  index,
  value,
  rules,
  onChange,
  onRemove,
}: {
  index: number;
  value: Assertion;
  rules: Rule[];
  onChange: (a: Assertion) => void;
  onRemove: () => void;
}) {
  const rule = rules.find((r) => r.type === value.type);
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md bg-slate-50 p-2">
      <select
        aria-label={`Assertion ${index + 1} type`}
        className={cn(inputClass, "w-48")}
        value={value.type}
        onChange={(e) => onChange({ type: e.target.value })}
      >
        {(rules.length ? rules.map((r) => r.type) : [value.type]).map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      {rule?.fields.map((f) => (
        <RuleField
          key={f.name}
          label={`Assertion ${index + 1} ${f.name}`}
          field={f}
          value={value[f.name]}
          onChange={(v) => onChange({ ...value, [f.name]: v })}
        />
      ))}
      <Button size="sm" variant="ghost" aria-label={`Remove assertion ${index + 1}`} onClick={onRemove}>
        ✕
      </Button>
    </div>
  );
}

function RuleField({
  label,
  field,
  value,
  onChange,
}: {
  label: string;
  field: Rule["fields"][number];
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const [jsonText, setJsonText] = useState(value === undefined ? "" : JSON.stringify(value));
  const placeholder = `${field.name}${field.optional ? " (optional)" : ""}`;
  if (field.kind === "choice")
    return (
      <select
        aria-label={label}
        className={cn(inputClass, "w-32")}
        value={String(value ?? field.choices?.[0] ?? "")}
        onChange={(e) => onChange(e.target.value)}
      >
        {field.choices?.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  if (field.kind === "number")
    return (
      <input
        aria-label={label}
        placeholder={placeholder}
        type="number"
        min={0}
        className={cn(inputClass, "w-28")}
        value={value === undefined ? "" : String(value)}
        onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
      />
    );
  if (field.kind === "json")
    return (
      <input
        aria-label={label}
        placeholder={`${placeholder}: JSON, e.g. "葱油饼" or 12`}
        className={cn(inputClass, "w-48 font-mono")}
        value={jsonText}
        onChange={(e) => {
          setJsonText(e.target.value);
          try {
            onChange(JSON.parse(e.target.value));
          } catch {
            onChange(e.target.value);
          }
        }}
      />
    );
  return (
    <input
      aria-label={label}
      placeholder={placeholder}
      className={cn(inputClass, "min-w-40 flex-1", (field.name === "path" || field.name === "flags") && "font-mono")}
      value={String(value ?? "")}
      onChange={(e) => onChange(e.target.value === "" && field.optional ? undefined : e.target.value)}
    />
  );
}
