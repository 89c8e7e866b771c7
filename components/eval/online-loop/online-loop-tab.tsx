"use client";

import { EmptyState } from "@/components/ui/feedback";
import { useEvalUrl, EvalLink } from "../context";

/** Track B's online feedback loop (the default tab): low-score leads -> regression pool -> runs -> Bad Cases. */
export function OnlineLoopTab({ agentName }: { agentId: string; agentName: string }) {
    return (
    <EmptyState title={`The online feedback loop of ${agentName}`}>
      Low-score online answers become leads; a person adds them to a regression pool (never to a golden set), confirms them, adds expectations, freezes the pool and runs it. Meanwhile,
      regression pools are managed under <EvalLink className="font-medium text-brand-700 underline" to={{ tab: "sets" }}>Evaluation sets</EvalLink>.
    </EmptyState>
  );
}
