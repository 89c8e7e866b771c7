"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { SearchInput } from "@/components/ui/search-input";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { deniedReason, useCaps, useEvalUrl } from "../context";
import { KindBadge, VersionBadge } from "../badges";
import { Breadcrumbs } from "../breadcrumbs";
import { when } from "../format";
import type { EvalSample } from "../types";
import { CreateRunDialog } from "../runs/create-run-dialog";
import { ExportMenu } from "./export-menu";
import { ImportDialog } from "./import-dialog";
import { SampleDialog } from "./sample-dialog";
import { SamplesTable } from "./samples-table";
import { useVersionActions } from "./use-version-actions";
import { useVersionSamples } from "./use-version-samples";

/** One version: its samples as a table (search, pages), the sample editor for drafts, import, export, freeze. */
export function VersionView({ setId, version }: { setId: string; version: number }) {
  const { caps, role } = useCaps();
  const [url, go] = useEvalUrl();
  const [editing, setEditing] = useState<EvalSample | "new" | null>(null);
  const [importing, setImporting] = useState(false);
  const [running, setRunning] = useState(false);
  const actions = useVersionActions(setId);
  const { set, samples, pages } = useVersionSamples(setId, version, url.q);
  if (set.error) return <ErrorState error={set.error} onRetry={() => set.refetch()} />;
  if (samples.error) return <ErrorState error={samples.error} onRetry={() => samples.refetch()} />;
  const v = samples.data?.version ?? set.data?.versions.find((x) => x.version === version);
  const frozen = v?.status === "frozen";
  const editable = !frozen && caps.manage;
  const manageTitle = caps.manage ? undefined : deniedReason(role, "manage");
  const rows = samples.data?.items ?? [];
  const page = pages.page;

  return (
    <div className="space-y-4">
      <Breadcrumbs
        items={[
          { label: "Evaluation sets", to: { tab: "sets" } },
          { label: set.data?.name ?? "…", to: { tab: "sets", set: setId } },
          { label: `Version ${version}` },
        ]}
      />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">
              {set.data?.name} · version {version}
            </h2>
            {v && <VersionBadge version={version} status={v.status} samples={v.sampleCount} />}
            {set.data && <KindBadge kind={set.data.kind} />}
          </div>
          {v?.note && <p className="mt-1 text-sm text-slate-600">{v.note}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          {!frozen && (
            <>
              <Button
                variant="secondary"
                disabled={!caps.manage}
                title={manageTitle}
                onClick={() => setImporting(true)}
              >
                Import…
              </Button>
              <Button variant="secondary" disabled={!caps.manage} title={manageTitle} onClick={() => setEditing("new")}>
                Add sample
              </Button>
            </>
          )}
          {frozen && v && set.data && (
            <Button
              disabled={!caps.manage}
              title={manageTitle ?? "A run that answers every question of this frozen version"}
              onClick={() => setRunning(true)}
            >
              New run from this version…
            </Button>
          )}
          <ExportMenu setId={setId} version={version} />
          <Button
            variant="secondary"
            disabled={!caps.manage || actions.busy}
            title={manageTitle}
            onClick={() => actions.newVersion(version)}
          >
            New version from this
          </Button>
          {!frozen && v && (
            <Button
              disabled={!caps.manage || actions.busy || v.sampleCount === 0}
              title={manageTitle ?? (v.sampleCount === 0 ? "Add samples first" : undefined)}
              onClick={() => actions.freeze(v)}
            >
              Freeze…
            </Button>
          )}
        </div>
      </div>
      {frozen && (
        <p className="rounded-lg border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
          Frozen {when(v?.frozenAt)}: read-only everywhere. Runs use it as it is; to change a question, create a new
          version from it.
        </p>
      )}

      <div className="flex flex-wrap items-center justify-between gap-3">
        <label className="relative block w-full max-w-sm">
          <span className="sr-only">Search samples</span>
          <SearchInput
            placeholder="Search question, key or scenario"
            value={url.q}
            onCommit={(q) => go({ q }, { replace: true })}
          />
        </label>
        {samples.data && (
          <span className="text-sm text-slate-500">
            {url.q ? `${samples.data.matching} matching` : `${samples.data.matching} samples`}
          </span>
        )}
      </div>

      {samples.isLoading ? (
        <LoadingRows rows={6} label="Loading samples" />
      ) : rows.length === 0 ? (
        url.q ? (
          <EmptyState title="No sample matches">Try another word, or clear the search.</EmptyState>
        ) : (
          <EmptyState
            title="This version has no sample yet"
            action={
              editable ? (
                <>
                  <Button onClick={() => setEditing("new")}>Add a sample</Button>
                  <Button variant="secondary" onClick={() => setImporting(true)}>
                    Import JSON, JSONL or CSV
                  </Button>
                </>
              ) : undefined
            }
          >
            A sample is a question with its expected points: short points the answer must cover, not a full answer.
          </EmptyState>
        )
      ) : (
        <SamplesTable
          version={version}
          rows={rows}
          page={page}
          matching={samples.data?.matching}
          nextCursor={samples.data?.nextCursor}
          onPrev={pages.prev}
          onNext={() => pages.next(samples.data?.nextCursor)}
          setEditing={setEditing}
        />
      )}
      <SampleDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        setId={setId}
        version={version}
        sample={editing === "new" ? null : editing}
        readOnly={!editable}
      />
      <ImportDialog open={importing} onClose={() => setImporting(false)} setId={setId} version={version} />
      {frozen && v && set.data && (
        <CreateRunDialog
          open={running}
          onClose={() => setRunning(false)}
          agentId={set.data.agentId}
          presetVersionId={v.id}
        />
      )}
    </div>
  );
}
