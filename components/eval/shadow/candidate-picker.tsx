"use client";

import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { ChoiceCards } from "@/components/ui/choice-cards";
import { Field, inputClass } from "@/components/ui/field";
import { JsonFileInput } from "@/components/ui/json-file-input";
import { plural } from "../format";
import type { CandidateSource, useCandidateChoice } from "./use-candidate-choice";
import { useAgentVersions } from "./use-agent-versions";
import type { ShadowConfig } from "./use-save-shadow";

/** Where the candidate comes from: a version of the agent, a workflow JSON file, the canvas draft, or the configured draft. */
export function CandidatePicker({
  agentId,
  config,
  publishedVersion,
  choice,
  disabled,
  missing,
}: {
  agentId: string;
  config: ShadowConfig | null;
  publishedVersion: number | null;
  choice: ReturnType<typeof useCandidateChoice>;
  disabled: boolean;
  missing: string | null;
}) {
  const versions = useAgentVersions(agentId);
  const fileInput = useRef<HTMLInputElement>(null);
  const draftConfigured = !!config && config.candidateVersion === null;
  const options: Array<{ value: CandidateSource; label: string; description: string }> = [
    { value: "version", label: "A version of this agent", description: "Provisioned in the builder." },
    {
      value: "file",
      label: "A workflow JSON file",
      description: choice.file
        ? `${choice.file.note.replace(/^file /, "")}: ${plural(choice.file.nodes, "node")}`
        : "A draft, e.g. exported from the canvas; checked by the server like any workflow.",
    },
    ...(choice.canvas
      ? [
          {
            value: "canvas" as const,
            label: "Your canvas draft",
            description: `Unsaved edits of this agent in this browser (${plural(choice.canvas.nodes, "node")}, ${choice.canvasAgo}).`,
          },
        ]
      : []),
    ...(draftConfigured
      ? [
          {
            value: "keep" as const,
            label: "Keep the configured draft",
            description: config.candidateNote ? `From ${config.candidateNote}.` : "Set earlier.",
          },
        ]
      : []),
  ];

  return (
    <div className="md:col-span-2">
      <ChoiceCards
        legend="Candidate"
        name="shadow-candidate-source"
        value={choice.source}
        onChange={choice.setSource}
        options={options}
      />
      <div className="mt-2 flex flex-wrap items-end gap-3">
        {choice.source === "version" && (
          <Field label="Version" dense>
            <select
              className={inputClass}
              value={choice.version}
              onChange={(e) => choice.setVersion(e.target.value)}
              disabled={disabled}
            >
              <option value="">Choose a version…</option>
              {(versions.data ?? []).map((v) => (
                <option key={v.version} value={v.version}>
                  Version {v.version}
                  {v.version === publishedVersion ? " (live)" : ""}
                  {v.note ? ` · ${v.note}` : ""}
                </option>
              ))}
            </select>
          </Field>
        )}
        {choice.source === "file" && (
          <>
            <Button variant="secondary" size="sm" disabled={disabled} onClick={() => fileInput.current?.click()}>
              {choice.file ? "Choose another file…" : "Choose a file…"}
            </Button>
            <JsonFileInput
              inputRef={fileInput}
              label="Candidate workflow JSON file"
              testId="shadow-candidate-file"
              onFile={(f) => void choice.pickFile(f)}
            />
          </>
        )}
      </div>
      {choice.fileError && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {choice.fileError}
        </p>
      )}
      {missing && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {missing}
        </p>
      )}
    </div>
  );
}
