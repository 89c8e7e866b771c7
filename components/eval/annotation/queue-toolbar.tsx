"use client";

import { Button } from "@/components/ui/button";
import { Kbd } from "@/components/ui/kbd";
import { RunStatusBadge } from "../badges";
import { Breadcrumbs } from "../breadcrumbs";
import { deniedReason, useCaps, EvalLink } from "../context";
import type { useAdopt } from "./use-adopt";
import type { useQueue } from "./use-queue";

/** The queue's header: where it is, the run's status and report, the queue toggle, shortcuts and bulk adoption. */
export function QueueToolbar({
  runId,
  run,
  counts: c,
  adopt,
  queueOpen,
  setQueueOpen,
  onHelp,
}: {
  runId: string;
  run: ReturnType<typeof useQueue>["run"];
  counts: { adoptable: number } | null | undefined;
  adopt: ReturnType<typeof useAdopt>;
  queueOpen: boolean;
  setQueueOpen: (update: (open: boolean) => boolean) => void;
  onHelp: () => void;
}) {
  const { caps, role } = useCaps();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <Breadcrumbs
        items={[
          { label: "Annotation", to: { tab: "annotation" } },
          { label: run ? `${run.shortId} · ${run.setName} v${run.setVersion}` : runId },
        ]}
      />
      <div className="flex flex-wrap items-center gap-2">
        {run && <RunStatusBadge status={run.status} />}
        {run && (
          <EvalLink
            to={{ tab: "runs", run: run.shortId }}
            className="text-sm font-medium text-brand-700 hover:underline"
          >
            Report
          </EvalLink>
        )}
        <Button
          size="sm"
          variant="secondary"
          className="hidden lg:inline-flex xl:hidden"
          aria-expanded={queueOpen}
          aria-controls="annotation-queue"
          onClick={() => setQueueOpen((o) => !o)}
        >
          {queueOpen ? "Hide the queue" : "Show the queue"}
        </Button>
        <Button size="sm" variant="ghost" onClick={onHelp} aria-label="Keyboard shortcuts">
          <Kbd>?</Kbd> Shortcuts
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={!caps.annotate || adopt.isPending || adopt.checking || !c?.adoptable}
          title={
            !caps.annotate
              ? deniedReason(role, "annotate")
              : c && !c.adoptable
                ? "No item without a verdict has a pass or fail suggestion"
                : undefined
          }
          onClick={adopt.ask}
        >
          Adopt machine suggestions
        </Button>
      </div>
    </div>
  );
}
