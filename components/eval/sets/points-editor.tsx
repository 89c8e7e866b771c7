"use client";

import type { Dispatch, SetStateAction } from "react";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";

/** The expected points of a sample, one input each (Enter adds the next one). */
export function PointsEditor({
  points,
  setPoints,
  error,
  readOnly,
}: {
  points: string[];
  setPoints: Dispatch<SetStateAction<string[]>>;
  error: string | undefined;
  readOnly: boolean;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Expected points</legend>
      <ol className="mt-1 space-y-2">
        {points.map((p, i) => (
          <li key={i} className="flex items-center gap-2">
            <span className="w-5 text-right text-xs tabular-nums text-slate-500">{i + 1}.</span>
            <input
              aria-label={`Expected point ${i + 1}`}
              className={inputClass}
              value={p}
              maxLength={500}
              onChange={(e) => setPoints((ps) => ps.map((x, j) => (j === i ? e.target.value : x)))}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  setPoints((ps) => [...ps.slice(0, i + 1), "", ...ps.slice(i + 1)]);
                }
              }}
            />
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove point ${i + 1}`}
              onClick={() => setPoints((ps) => (ps.length > 1 ? ps.filter((_, j) => j !== i) : [""]))}
            >
              ✕
            </Button>
          </li>
        ))}
      </ol>
      {error && <p className="mt-1 text-xs text-red-700">{error}</p>}
      {!readOnly && (
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => setPoints((ps) => [...ps, ""])}>
          Add point
        </Button>
      )}
    </fieldset>
  );
}
