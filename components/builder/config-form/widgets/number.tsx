"use client";

import { useEffect, useState } from "react";
import { denseInputClass } from "@/components/ui/field";
import type { WidgetProps } from "./types";

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
