"use client";

import { useEffect, useId, useState } from "react";
import { CodeField } from "../code-field";
import type { WidgetProps } from "./types";

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
