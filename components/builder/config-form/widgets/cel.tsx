"use client";

import { CodeField } from "../code-field";
import { asText, type WidgetProps } from "./types";

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
