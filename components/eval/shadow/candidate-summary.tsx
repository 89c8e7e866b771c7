"use client";

import { Badge } from "@/components/ui/badge";
import { plural } from "../format";
import type { ShadowConfig } from "./use-save-shadow";

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
