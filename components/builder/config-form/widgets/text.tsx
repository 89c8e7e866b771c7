"use client";

import { denseInputClass } from "@/components/ui/field";
import { asText, type WidgetProps } from "./types";

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
