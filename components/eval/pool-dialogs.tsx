"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { FormDialog } from "@/components/ui/form-dialog";
import { Field, inputClass } from "@/components/ui/field";
import { LoadingRows } from "@/components/ui/feedback";
import { useToast } from "@/components/ui/toast";
import type { Lead } from "./types";
import { useSetsChanged } from "./sets/use-sets-changed";
import { useMutationToast } from "./hooks/use-mutation-toast";

/** Adds an online trace to a regression pool (also used by the intent-shadow tab for a disagreement). */
export function AddToPoolDialog({
  lead,
  agentId,
  onClose,
}: {
  lead: Pick<Lead, "traceId" | "message" | "conversation">;
  agentId: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const setsChanged = useSetsChanged();
  const toast = useToast();
  const { fail } = useMutationToast();
  const pools = useQuery(trpc.eval.sets.list.queryOptions({ agentId, kind: "regression_pool", limit: 200 }));
  const [setId, setSetId] = useState("");
  const [question, setQuestion] = useState(lead.message);
  const [points, setPoints] = useState("");
  const [classification, setClassification] = useState("");
  const chosen = setId || pools.data?.items[0]?.id || "";
  const createPool = useMutation(
    trpc.eval.sets.create.mutationOptions({
      onSuccess: async (s) => {
        await setsChanged();
        setSetId(s.id);
      },
      onError: fail("No pool created"),
    }),
  );
  const add = useMutation(
    trpc.eval.online.addToPool.mutationOptions({
      onSuccess: async (r) => {
        toast(
          r.duplicate
            ? { tone: "info", title: `Already in the pool as ${r.sample.key} (v${r.version})` }
            : {
                tone: "success",
                title: `Added as ${r.sample.key} to v${r.version}`,
                description: r.likelyDuplicateOf
                  ? `Its question reads like ${r.likelyDuplicateOf}'s: check whether both are needed.`
                  : "Confirm it on the board above, give it expectations, then freeze and run the pool.",
              },
        );
        await qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
        onClose();
      },
      onError: fail("Not added"),
    }),
  );
  const expectedPoints = points
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Add to a regression pool"
      description="The sample keeps this trace as its source and the online answer for reference. A frozen pool gets a new draft version first."
      submitLabel="Add to pool"
      canSubmit={!!chosen && !!question.trim()}
      pending={add.isPending}
      onSubmit={() =>
        add.mutate({
          id: chosen,
          body: {
            traceId: lead.traceId,
            question: question.trim(),
            ...(expectedPoints.length ? { expectedPoints } : {}),
            ...(classification.trim() ? { classification: classification.trim() } : {}),
          },
        })
      }
      className="space-y-3"
    >
      {pools.isLoading ? (
        <LoadingRows rows={1} label="Loading pools" />
      ) : pools.data?.items.length ? (
        <Field label="Regression pool">
          <select className={inputClass} value={chosen} onChange={(e) => setSetId(e.target.value)}>
            {pools.data.items.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <div className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600">
          The agent has no regression pool yet.{" "}
          <Button
            size="sm"
            variant="secondary"
            disabled={createPool.isPending}
            onClick={() =>
              createPool.mutate({ agentId, name: "Regression pool", kind: "regression_pool", gateThreshold: 0 })
            }
          >
            Create “Regression pool”
          </Button>
        </div>
      )}
      <Field label="Question" hint="The user's message; edit it if the sample should ask it differently">
        <textarea className={inputClass} rows={2} value={question} onChange={(e) => setQuestion(e.target.value)} />
      </Field>
      {lead.conversation.length > 0 && (
        <p className="text-xs text-slate-500">
          The {lead.conversation.length} earlier turns become preset turns of the sample's script.
        </p>
      )}
      <Field
        label="Expected points (optional)"
        hint="One short point per line; you can add them later on the board, before freezing"
      >
        <textarea className={inputClass} rows={3} value={points} onChange={(e) => setPoints(e.target.value)} />
      </Field>
      <Field label="Scenario (optional)">
        <input className={inputClass} value={classification} onChange={(e) => setClassification(e.target.value)} />
      </Field>
    </FormDialog>
  );
}

export function DismissDialog({ lead, onClose }: { lead: Pick<Lead, "traceId">; onClose: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { fail } = useMutationToast();
  const [reason, setReason] = useState("");
  const dismiss = useMutation(
    trpc.eval.online.dismiss.mutationOptions({
      onSuccess: async () => {
        toast({ tone: "success", title: "Lead dismissed" });
        await qc.invalidateQueries({ queryKey: trpc.eval.online.pathKey() });
        onClose();
      },
      onError: fail("Not dismissed"),
    }),
  );
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Dismiss this lead"
      description="It stays listed under Dismissed with your reason and name, and can be restored."
      submitLabel="Dismiss"
      canSubmit={!!reason.trim()}
      pending={dismiss.isPending}
      onSubmit={() => dismiss.mutate({ traceId: lead.traceId, body: { reason: reason.trim() } })}
    >
      <Field label="Reason">
        <textarea
          className={inputClass}
          rows={2}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder="e.g. the user asked about something we do not sell"
        />
      </Field>
    </FormDialog>
  );
}
