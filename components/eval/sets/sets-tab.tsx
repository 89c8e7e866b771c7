"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { deniedReason, useCaps, useEvalUrl, EvalLink } from "../context";
import { KindBadge, VersionBadge } from "../badges";
import { SetDialog } from "./set-dialog";
import { SetView } from "./set-view";
import { VersionView } from "./version-view";
import type { EvalSet } from "../types";

/** Evaluation sets of the agent: cards with kind, gate and versions; a set's page; a version's page. */
export function SetsTab({ agentId, agentName }: { agentId: string; agentName: string }) {
  const [url] = useEvalUrl();
  if (url.set && url.v) return <VersionView setId={url.set} version={url.v} />;
  if (url.set) return <SetView setId={url.set} />;
  return <SetList agentId={agentId} agentName={agentName} />;
}

function SetList({ agentId, agentName }: { agentId: string; agentName: string }) {
  const trpc = useTRPC();
  const { caps, role } = useCaps();
  const [creating, setCreating] = useState(false);
  const sets = useQuery(trpc.eval.sets.list.queryOptions({ agentId, limit: 200 }));
  const items = sets.data?.items ?? [];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-3xl text-sm text-slate-600">
          Questions with expected points, versioned and frozen before a run.{" "}
          <strong className="font-medium text-slate-800">Golden</strong> sets gate releases (track A);{" "}
          <strong className="font-medium text-slate-800">regression pools</strong> collect online cases (track B) and
          never gate.
        </p>
        <Button
          onClick={() => setCreating(true)}
          disabled={!caps.manage}
          title={caps.manage ? undefined : deniedReason(role, "manage")}
        >
          New set
        </Button>
      </div>
      {sets.error ? (
        <ErrorState error={sets.error} onRetry={() => sets.refetch()} />
      ) : sets.isLoading ? (
        <LoadingRows rows={3} label="Loading evaluation sets" />
      ) : items.length === 0 ? (
        <EmptyState
          title={`${agentName} has no evaluation set yet`}
          action={caps.manage ? <Button onClick={() => setCreating(true)}>Create the first set</Button> : undefined}
        >
          Create a golden set of questions with expected points, add or import samples, then freeze it to start runs.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {items.map((s) => (
            <SetCard key={s.id} set={s} />
          ))}
        </ul>
      )}
      <SetDialog open={creating} onClose={() => setCreating(false)} agentId={agentId} />
    </div>
  );
}

function SetCard({ set }: { set: EvalSet }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.eval.sets.get.queryOptions({ id: set.id }));
  const versions = detail.data?.versions ?? [];
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-xs transition hover:border-brand-500/40">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <EvalLink
            to={{ tab: "sets", set: set.id }}
            className="text-base font-semibold text-slate-900 hover:text-brand-700 hover:underline"
          >
            {set.name}
          </EvalLink>
          {set.description && <p className="mt-0.5 line-clamp-2 text-sm text-slate-500">{set.description}</p>}
        </div>
        <KindBadge kind={set.kind} />
      </div>
      <p className="mt-3 text-sm text-slate-700">
        {set.kind === "golden" ? (
          <>
            Gate: at least <strong className="tabular-nums">{set.gateThreshold}</strong> human-confirmed passes
          </>
        ) : (
          "Track B: never passes a release gate"
        )}
      </p>
      <div className="mt-3 flex flex-wrap gap-2" aria-label="Versions">
        {detail.isLoading && <Badge>loading versions…</Badge>}
        {versions.map((v) => (
          <EvalLink
            key={v.id}
            to={{ tab: "sets", set: set.id, v: v.version }}
            className="rounded-full focus-visible:outline-2"
          >
            <VersionBadge version={v.version} status={v.status} samples={v.sampleCount} />
          </EvalLink>
        ))}
      </div>
    </li>
  );
}
