"use client";

import { CodeField } from "../code-field";
import { asText, type WidgetProps } from "./types";

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
