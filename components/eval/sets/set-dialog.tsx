"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { ChoiceCards } from "@/components/ui/choice-cards";
import { FormDialog } from "@/components/ui/form-dialog";
import { cn } from "@/components/ui/cn";
import { Field, inputClass } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { useEvalUrl } from "../context";
import { errorInfo, type EvalSet } from "../types";
import { useSetsChanged } from "./use-sets-changed";

/**
 * Create a set bound to the agent, or edit one's name, description, gate threshold and the audit of adopted passes
 * (the share of each adoption's passes drawn for a person to check, and how many of them may be overturned).
 */
export function SetDialog({
  open,
  onClose,
  agentId,
  set,
}: {
  open: boolean;
  onClose: () => void;
  agentId: string;
  set?: EvalSet;
}) {
  const trpc = useTRPC();
  const setsChanged = useSetsChanged();
  const toast = useToast();
  const [, go] = useEvalUrl();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [kind, setKind] = useState<"golden" | "regression_pool">("golden");
  const [threshold, setThreshold] = useState("");
  const [auditPercent, setAuditPercent] = useState("10");
  const [maxOverturn, setMaxOverturn] = useState("0");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setName(set?.name ?? "");
    setDescription(set?.description ?? "");
    setKind(set?.kind ?? "golden");
    setThreshold(set ? String(set.gateThreshold) : "");
    setAuditPercent(set ? String(Math.round(set.auditRate * 10000) / 100) : "10");
    setMaxOverturn(set ? String(set.maxAuditOverturn) : "0");
    setError(null);
  }, [open, set]);

  const done = async () => {
    await setsChanged();
    onClose();
  };
  const create = useMutation(
    trpc.eval.sets.create.mutationOptions({
      onSuccess: async (s) => {
        toast({
          tone: "success",
          title: `Set “${s.name}” created`,
          description: "Version 1 is a draft: add or import samples, then freeze it.",
        });
        await done();
        go({ tab: "sets", set: s.id, v: 1 });
      },
      onError: (e) => setError(errorInfo(e).message),
    }),
  );
  const update = useMutation(
    trpc.eval.sets.update.mutationOptions({
      onSuccess: async () => {
        toast({ tone: "success", title: "Set saved" });
        await done();
      },
      onError: (e) => setError(errorInfo(e).message),
    }),
  );
  const thresholdNumber = Number(threshold);
  const audit = auditSettings(auditPercent, maxOverturn);
  const valid =
    name.trim().length > 0 &&
    (kind === "regression_pool" ||
      (threshold !== "" && Number.isInteger(thresholdNumber) && thresholdNumber >= 0 && !audit.error));
  const submit = () => {
    const gateThreshold = kind === "regression_pool" && threshold === "" ? 0 : thresholdNumber;
    // the audit settings gate golden runs only: a regression pool keeps what it has
    const auditBody =
      kind === "golden" && !audit.error ? { auditRate: audit.rate, maxAuditOverturn: audit.maxOverturn } : {};
    if (set) update.mutate({ id: set.id, body: { name: name.trim(), description, gateThreshold, ...auditBody } });
    else create.mutate({ agentId, name: name.trim(), description, kind, gateThreshold, ...auditBody });
  };
  const pending = create.isPending || update.isPending;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={set ? "Edit the set" : "New evaluation set"}
      description={
        set
          ? "The kind cannot change. A threshold change applies to runs created afterwards."
          : "A set is bound to this agent. Its version 1 starts as an empty draft."
      }
      submitLabel={set ? "Save" : "Create set"}
      pendingLabel="Saving…"
      canSubmit={valid}
      pending={pending}
      onSubmit={submit}
      enterSubmits
      className="space-y-4"
    >
      <Field label="Name">
        <input className={inputClass} value={name} maxLength={120} onChange={(e) => setName(e.target.value)} required />
      </Field>
      {!set && (
        <ChoiceCards
          legend="Kind"
          name="kind"
          value={kind}
          onChange={setKind}
          options={[
            {
              value: "golden",
              label: "Golden set",
              description: "Track A: decides release readiness through the gate.",
            },
            {
              value: "regression_pool",
              label: "Regression pool",
              description: "Track B: online cases that must not regress; never gates a release.",
            },
          ]}
        />
      )}
      {kind === "golden" && (
        <Field
          label="Gate threshold"
          hint="Human-confirmed passes the release gate needs, as a count: e.g. 26 of 30 questions."
        >
          <input
            className={cn(inputClass, "w-32")}
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            required
          />
        </Field>
      )}
      {kind === "golden" && (
        <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-800">Audit of adopted passes</legend>
          <p className="text-xs text-slate-600">
            Each time machine suggestions are adopted, a random share of the passes it writes goes on the spot-check
            list for a person to check (at least 3, all of them if fewer). The gate waits for them; when people overturn
            more than allowed, it fails until every other adopted pass is reviewed. Runs keep the values they were
            created with.
          </p>
          <div className="flex flex-wrap gap-4">
            <Field label="Audit rate (%)" hint="0 turns the audit off (“no audit”).">
              <input
                className={cn(inputClass, "w-28")}
                type="number"
                min={0}
                max={100}
                step={1}
                inputMode="decimal"
                value={auditPercent}
                onChange={(e) => setAuditPercent(e.target.value)}
                aria-invalid={audit.error === "rate" || undefined}
                required
              />
            </Field>
            <Field label="Overturns allowed" hint="0: any overturned pass fails the gate.">
              <input
                className={cn(inputClass, "w-28")}
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                value={maxOverturn}
                onChange={(e) => setMaxOverturn(e.target.value)}
                aria-invalid={audit.error === "overturn" || undefined}
                required
              />
            </Field>
          </div>
          {audit.error && (
            <p className="text-xs text-red-700">
              {audit.error === "rate"
                ? "The audit rate is a percentage from 0 to 100."
                : "Overturns allowed is a whole number, 0 or more."}
            </p>
          )}
        </fieldset>
      )}
      <Field label="Description" hint="Optional: what the set covers.">
        <textarea
          className={inputClass}
          rows={2}
          maxLength={2000}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </Field>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </FormDialog>
  );
}

/** The audit fields as the API takes them: the rate as a fraction (0-1) and the overturns allowed; or which is wrong. */
export function auditSettings(
  percent: string,
  maxOverturn: string,
): { rate: number; maxOverturn: number; error: null } | { rate: null; maxOverturn: null; error: "rate" | "overturn" } {
  const p = Number(percent);
  const m = Number(maxOverturn);
  if (percent.trim() === "" || !Number.isFinite(p) || p < 0 || p > 100)
    return { rate: null, maxOverturn: null, error: "rate" };
  if (maxOverturn.trim() === "" || !Number.isInteger(m) || m < 0)
    return { rate: null, maxOverturn: null, error: "overturn" };
  return { rate: Math.round(p * 100) / 10000, maxOverturn: m, error: null };
}
