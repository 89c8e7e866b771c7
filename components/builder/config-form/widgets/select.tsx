"use client";

import { denseInputClass } from "@/components/ui/field";
import type { WidgetProps } from "./types";

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
