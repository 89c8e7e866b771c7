"use client";

import { CodeField } from "../code-field";
import { asText, type WidgetProps } from "./types";

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
