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

/** Create a set bound to the agent, or edit one's name, description and gate threshold. */
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
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setName(set?.name ?? "");
    setDescription(set?.description ?? "");
    setKind(set?.kind ?? "golden");
    setThreshold(set ? String(set.gateThreshold) : "");
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
  const valid =
    name.trim().length > 0 &&
    (kind === "regression_pool" || (threshold !== "" && Number.isInteger(thresholdNumber) && thresholdNumber >= 0));
  const submit = () => {
    const gateThreshold = kind === "regression_pool" && threshold === "" ? 0 : thresholdNumber;
    if (set) update.mutate({ id: set.id, body: { name: name.trim(), description, gateThreshold } });
    else create.mutate({ agentId, name: name.trim(), description, kind, gateThreshold });
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
