"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, inputClass } from "@/components/ui/field";
import { deniedReason, useCaps } from "../context";
import { ago } from "../format";
import { CandidatePicker } from "./candidate-picker";
import { CandidateSummary } from "./candidate-summary";
import { FindingsList } from "./findings-list";
import { useCandidateChoice } from "./use-candidate-choice";
import { useSaveShadow, type ShadowConfig } from "./use-save-shadow";

/**
 * The configuration: the candidate (a version of the agent, a workflow JSON file, the builder's canvas draft, or the
 * draft already configured), where each side keeps its intent, the sample rate and on/off. A draft is validated by
 * the server like any workflow that is provisioned: its errors (nothing saved) and warnings are listed here.
 */
export function ConfigCard({
  agentId,
  config,
  publishedVersion,
}: {
  agentId: string;
  config: ShadowConfig | null;
  publishedVersion: number | null;
}) {
  const { caps, role } = useCaps();
  const choice = useCandidateChoice(agentId, config);
  const [liveRef, setLiveRef] = useState("");
  const [candidateRef, setCandidateRef] = useState("");
  const [rate, setRate] = useState("100");
  const [enabled, setEnabled] = useState(true);
  const [missing, setMissing] = useState<string | null>(null);
  useEffect(() => {
    setLiveRef(config?.liveRef ?? "");
    setCandidateRef(config?.candidateRef ?? "");
    setRate(String(Math.round((config?.sampleRate ?? 1) * 100)));
    setEnabled(config?.enabled ?? true);
  }, [config]);
  const { save, findings, setFindings } = useSaveShadow();
  const disabled = !caps.manage;

  return (
    <Card
      title="Configuration"
      description={
        config
          ? `Last changed ${ago(config.updatedAt)}.`
          : "Not configured yet: choose the candidate and where each side keeps its intent."
      }
    >
      {config && (
        <div className="mb-4 rounded-lg bg-slate-50 px-3 py-2">
          <CandidateSummary config={config} publishedVersion={publishedVersion} />
        </div>
      )}
      <form
        className="grid gap-4 md:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          const body = choice.body();
          if ("missing" in body) return setMissing(body.missing);
          setMissing(null);
          setFindings(null);
          const candidate =
            "keep" in body
              ? { candidateWorkflow: config!.candidateWorkflow, candidateNote: config!.candidateNote }
              : body;
          save.mutate({
            agentId,
            body: {
              ...candidate,
              liveRef: liveRef.trim(),
              candidateRef: candidateRef.trim(),
              sampleRate: Math.min(100, Math.max(0, Number(rate) || 0)) / 100,
              enabled,
            },
          });
        }}
      >
        <CandidatePicker
          agentId={agentId}
          config={config}
          publishedVersion={publishedVersion}
          choice={choice}
          disabled={disabled}
          missing={missing}
        />
        <Field label="Live intent" hint="Where the live version's trace keeps the intent, e.g. {{detect.result.scene}}">
          <input
            className={inputClass}
            value={liveRef}
            onChange={(e) => setLiveRef(e.target.value)}
            disabled={disabled}
            required
            placeholder="{{detect.result.scene}}"
          />
        </Field>
        <Field label="Candidate intent" hint="The same in the candidate">
          <input
            className={inputClass}
            value={candidateRef}
            onChange={(e) => setCandidateRef(e.target.value)}
            disabled={disabled}
            required
            placeholder="{{classify.result.scene}}"
          />
        </Field>
        <Field label="Sample rate" hint="Share of online chats shadowed, in percent">
          <input
            className={inputClass}
            type="number"
            min={0}
            max={100}
            value={rate}
            onChange={(e) => setRate(e.target.value)}
            disabled={disabled}
          />
        </Field>
        <div className="flex items-end justify-between gap-3">
          <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={enabled}
              onChange={(e) => setEnabled(e.target.checked)}
              disabled={disabled}
            />{" "}
            Shadow live traffic
          </label>
          <Button
            type="submit"
            disabled={disabled || save.isPending}
            title={disabled ? deniedReason(role, "manage") : undefined}
          >
            {save.isPending ? "Checking…" : "Save"}
          </Button>
        </div>
      </form>
      <FindingsList findings={findings} />
    </Card>
  );
}
