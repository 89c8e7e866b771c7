"use client";

import type { Ref } from "react";

/** A hidden file picker for JSON files (the agents list and the canvas import workflows with it); it is reset after each pick so the same file can be chosen again. */
export function JsonFileInput({
  inputRef,
  label,
  testId,
  onFile,
}: {
  inputRef: Ref<HTMLInputElement>;
  label: string;
  testId: string;
  onFile: (file: File) => void;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept="application/json,.json"
      className="hidden"
      aria-label={label}
      data-testid={testId}
      onChange={(e) => {
        const f = e.target.files?.[0];
        e.target.value = "";
        if (f) onFile(f);
      }}
    />
  );
}
