"use client";

import type { Dispatch, SetStateAction } from "react";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import type { Turn } from "./use-sample-form";

/** A sample's multi-turn script: turns with a role, content and the preset toggle; null is a single question. */
export function ScriptEditor({
  script,
  setScript,
  question,
  error,
  readOnly,
}: {
  script: Turn[] | null;
  setScript: Dispatch<SetStateAction<Turn[] | null>>;
  question: string;
  error: string | undefined;
  readOnly: boolean;
}) {
  return (
    <fieldset className="rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-800">Multi-turn script</legend>
      {script === null ? (
        <div className="flex items-center justify-between gap-3">
          <p className="text-xs text-slate-500">
            A single question. A script plays turns in order; preset turns are injected as context and do not call the
            model.
          </p>
          {!readOnly && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setScript([{ role: "user", content: question, preset: false }])}
            >
              Turn into a script
            </Button>
          )}
        </div>
      ) : (
        <div className="space-y-2">
          {script.map((t, i) => (
            <div
              key={i}
              className={`grid gap-2 rounded-md p-2 sm:grid-cols-[7rem_1fr_auto] ${t.preset ? "bg-slate-50" : "bg-brand-50/40"}`}
            >
              <select
                aria-label={`Turn ${i + 1} role`}
                className={inputClass}
                value={t.role}
                onChange={(e) =>
                  setScript((s) => s!.map((x, j) => (j === i ? { ...x, role: e.target.value as Turn["role"] } : x)))
                }
              >
                <option value="user">user</option>
                <option value="assistant">assistant</option>
                <option value="system">system</option>
              </select>
              <textarea
                aria-label={`Turn ${i + 1} content`}
                className={inputClass}
                rows={2}
                value={t.content}
                onChange={(e) => setScript((s) => s!.map((x, j) => (j === i ? { ...x, content: e.target.value } : x)))}
              />
              <div className="flex items-start gap-2">
                <label className="flex items-center gap-1 whitespace-nowrap pt-2 text-xs text-slate-700">
                  <input
                    type="checkbox"
                    checked={t.preset}
                    onChange={(e) =>
                      setScript((s) => s!.map((x, j) => (j === i ? { ...x, preset: e.target.checked } : x)))
                    }
                  />
                  preset
                </label>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove turn ${i + 1}`}
                  onClick={() => setScript((s) => (s!.length > 1 ? s!.filter((_, j) => j !== i) : null))}
                >
                  ✕
                </Button>
              </div>
            </div>
          ))}
          {error && <p className="text-xs text-red-700">{error}</p>}
          {!readOnly && (
            <div className="flex gap-2">
              <Button
                size="sm"
                variant="secondary"
                onClick={() => setScript((s) => [...s!, { role: "user", content: "", preset: false }])}
              >
                Add turn
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setScript(null)}>
                Back to a single question
              </Button>
            </div>
          )}
          <p className="text-xs text-slate-500">
            Only user turns can be played; mark assistant and system turns preset.
          </p>
        </div>
      )}
    </fieldset>
  );
}
