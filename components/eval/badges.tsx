import { Badge, type BadgeTone } from "@/components/ui/badge";
import { words } from "./format";

/** The evaluation vocabulary as badges: one place for each status's tone and words. */
export function KindBadge({ kind }: { kind: "golden" | "regression_pool" }) {
  return kind === "golden" ? (
    <Badge tone="warning">Golden · gates releases</Badge>
  ) : (
    <Badge tone="violet">Regression pool</Badge>
  );
}

export function VersionBadge({
  version,
  status,
  samples,
}: {
  version: number;
  status: "draft" | "frozen";
  samples?: number;
}) {
  return (
    <Badge tone={status === "frozen" ? "info" : "neutral"}>
      v{version} · {status}
      {samples !== undefined ? ` · ${samples} sample${samples === 1 ? "" : "s"}` : ""}
    </Badge>
  );
}

const RUN_TONES: Record<string, BadgeTone> = {
  created: "neutral",
  answering: "brand",
  awaiting_review: "warning",
  completed: "success",
  cancelled: "neutral",
  failed: "danger",
};
export function RunStatusBadge({ status }: { status: string }) {
  return <Badge tone={RUN_TONES[status] ?? "neutral"}>{words(status)}</Badge>;
}

export function TierBadge({ tier }: { tier: string }) {
  return (
    <Badge tone={tier === "pipeline_live" ? "success" : tier === "pipeline" ? "neutral" : "info"}>{words(tier)}</Badge>
  );
}

export function VerdictBadge({
  verdict,
  source,
}: {
  verdict: "pass" | "fail" | null | undefined;
  source?: "human" | "adopted";
}) {
  if (!verdict) return <Badge>no verdict</Badge>;
  return (
    <Badge
      tone={verdict === "pass" ? "success" : "danger"}
      title={source === "adopted" ? "A machine suggestion adopted in bulk" : "A person's verdict"}
    >
      {verdict}
      {source === "adopted" ? " · adopted" : ""}
    </Badge>
  );
}

export function SuggestionBadge({ verdict }: { verdict: "pass" | "fail" | "unknown" | null | undefined }) {
  if (!verdict) return <Badge>no suggestion</Badge>;
  const tone: BadgeTone = verdict === "pass" ? "success" : verdict === "fail" ? "danger" : "warning";
  return (
    <Badge tone={tone} className="bg-white" title="Machine suggestion: assistance only, never counted by a gate">
      machine: {verdict}
    </Badge>
  );
}

const BAD_CASE_TONES: Record<string, BadgeTone> = {
  open: "danger",
  fixing: "warning",
  fixed: "info",
  verified: "success",
  wont_fix: "neutral",
};
export const badCaseTone = (status: string): BadgeTone => BAD_CASE_TONES[status] ?? "neutral";
export function BadCaseBadge({ status }: { status: string }) {
  return <Badge tone={badCaseTone(status)}>{status === "wont_fix" ? "won't fix" : words(status)}</Badge>;
}

export function FlagBadge({ flag, meaning }: { flag: string; meaning?: string }) {
  return (
    <Badge tone="warning" title={meaning}>
      ⚑ {words(flag)}
    </Badge>
  );
}
