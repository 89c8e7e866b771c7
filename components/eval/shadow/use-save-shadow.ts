"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useToast } from "@/components/ui/toast";
import { plural } from "../format";
import { errorInfo } from "../types";

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
export type FindingT = { code: string; severity: string; message: string; nodeId?: string };

/**
 * Saving the shadow's configuration: the server validates a draft candidate like any provisioned workflow; its
 * warnings (saved) or errors (nothing saved, WORKFLOW_INVALID) are `findings`.
 */
export function useSaveShadow() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [findings, setFindings] = useState<{ saved: boolean; items: FindingT[] } | null>(null);
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
  return { save, findings, setFindings };
}
