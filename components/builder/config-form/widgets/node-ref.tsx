"use client";

import { denseInputClass } from "@/components/ui/field";
import type { WidgetProps } from "./types";

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
