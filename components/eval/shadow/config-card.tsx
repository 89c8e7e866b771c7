"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ChoiceCards } from "@/components/ui/choice-cards";
import { Field, inputClass } from "@/components/ui/field";
import { JsonFileInput } from "@/components/ui/json-file-input";
import { useToast } from "@/components/ui/toast";
import { deniedReason, useCaps } from "../context";
import { ago, plural } from "../format";
import { errorInfo } from "../types";
import { useCandidateChoice, type CandidateSource } from "./use-candidate-choice";

export type ShadowConfig = {
  candidateVersion: number | null;
  candidateWorkflow: unknown;
  candidateNote: string;
  liveRef: string;
  candidateRef: string;
  sampleRate: number;
  enabled: boolean;
  updatedAt: string;
};
type FindingT = { code: string; severity: string; message: string; nodeId?: string };

const nodesOf = (w: unknown) => ((w as { nodes?: unknown[] } | null)?.nodes ?? []).length;

/** What the shadow compares now, in one line: the candidate, its origin, sampling, on/off. */
export function CandidateSummary({
  config,
  publishedVersion,
}: {
  config: ShadowConfig;
  publishedVersion: number | null;
}) {
  const draft = config.candidateVersion === null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700" data-testid="shadow-candidate">
      <span className="text-slate-500">Candidate:</span>
      <strong className="font-semibold text-slate-900">
        {draft ? "Draft workflow" : `Version ${config.candidateVersion}`}
      </strong>
      {draft && <span className="text-slate-600">({plural(nodesOf(config.candidateWorkflow), "node")})</span>}
      {config.candidateNote && <span className="text-slate-600">from {config.candidateNote}</span>}
      <span className="text-slate-400" aria-hidden="true">
        ·
      </span>
      <span className="text-slate-600">
        live: {publishedVersion ? `version ${publishedVersion}` : "none published"}
      </span>
      <Badge tone={config.enabled ? "success" : "neutral"}>
        {config.enabled ? `shadowing ${Math.round(config.sampleRate * 100)}% of chats` : "off"}
      </Badge>
    </div>
  );
}

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
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { caps, role } = useCaps();
  const versions = useQuery(trpc.builder.versions.list.queryOptions({ id: agentId }));
  const choice = useCandidateChoice(agentId, config);
  const fileInput = useRef<HTMLInputElement>(null);
  const [liveRef, setLiveRef] = useState("");
  const [candidateRef, setCandidateRef] = useState("");
  const [rate, setRate] = useState("100");
  const [enabled, setEnabled] = useState(true);
  const [findings, setFindings] = useState<{ saved: boolean; items: FindingT[] } | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  useEffect(() => {
    setLiveRef(config?.liveRef ?? "");
    setCandidateRef(config?.candidateRef ?? "");
    setRate(String(Math.round((config?.sampleRate ?? 1) * 100)));
    setEnabled(config?.enabled ?? true);
  }, [config]);
  const save = useMutation(
    trpc.eval.shadow.put.mutationOptions({
      onSuccess: async (r) => {
        setFindings(r.warnings.length ? { saved: true, items: r.warnings } : null);
        toast({
          tone: "success",
          title: "Shadow saved",
          description: r.warnings.length ? `The candidate has ${plural(r.warnings.length, "warning")}.` : undefined,
        });
        await qc.invalidateQueries({ queryKey: trpc.eval.shadow.pathKey() });
      },
      onError: (e) => {
        const info = errorInfo(e);
        if (info.code === "WORKFLOW_INVALID") setFindings({ saved: false, items: info.details as FindingT[] });
        toast({ tone: "error", title: "Not saved", description: info.message });
      },
    }),
  );
  const disabled = !caps.manage;
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
      {findings && findings.items.length > 0 && (
        <div
          role={findings.saved ? "status" : "alert"}
          className={`mt-4 rounded-lg border px-3 py-2 text-sm ${findings.saved ? "border-amber-200 bg-amber-50" : "border-red-200 bg-red-50"}`}
        >
          <p className="font-medium text-slate-900">
            {findings.saved
              ? "Saved; the candidate has warnings:"
              : "The candidate workflow is not valid; nothing was saved:"}
          </p>
          <ul aria-label="Findings of the candidate" className="mt-1 space-y-0.5">
            {findings.items.map((f, i) => (
              <li key={i}>
                <span className={`font-mono text-xs ${f.severity === "error" ? "text-red-700" : "text-amber-800"}`}>
                  {f.code}
                </span>
                {f.nodeId ? <span className="font-mono text-xs text-slate-600"> {f.nodeId}</span> : null}: {f.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
