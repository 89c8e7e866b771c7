"use client";

import { EmptyState } from "@/components/ui/feedback";

/** Intent shadow: a candidate intent/scene classifier computed beside live traffic, never changing what users get. */
export function ShadowTab({ agentName }: { agentId: string; agentName: string }) {
  return (
    <EmptyState title={`Intent shadow for ${agentName}`}>
      Try a new intent or scene classifier on real traffic before it goes live: the candidate computes its intent beside every sampled online chat, in the background, and this tab shows
      how often it agrees with the live one.
    </EmptyState>
  );
}
