"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useCursorPages } from "../use-cursor-pages";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ICONS, Icon } from "@/components/ui/icon";
import { SearchInput } from "@/components/ui/search-input";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Pagination } from "@/components/ui/pagination";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { deniedReason, useCaps, useEvalUrl } from "../context";
import { KindBadge, VersionBadge } from "../badges";
import { Breadcrumbs } from "../breadcrumbs";
import { when } from "../format";
import type { EvalSample } from "../types";
import { TraceButton } from "../trace-steps";
import { CreateRunDialog } from "../runs/create-run-dialog";
import { ImportDialog } from "./import-dialog";
import { SampleDialog } from "./sample-dialog";
import { useVersionActions } from "./use-version-actions";

const PAGE = 50;

/** One version: its samples as a table (search, pages), the sample editor for drafts, import, export, freeze. */
export function VersionView({ setId, version }: { setId: string; version: number }) {
  const trpc = useTRPC();
  const { caps, role } = useCaps();
  const [url, go] = useEvalUrl();
  const pages = useCursorPages();
  const [editing, setEditing] = useState<EvalSample | "new" | null>(null);
  const [importing, setImporting] = useState(false);
  const [running, setRunning] = useState(false);
  const actions = useVersionActions(setId);
  const set = useQuery(trpc.eval.sets.get.queryOptions({ id: setId }));
  const cursor = pages.cursor;
  const samples = useQuery({
    ...trpc.eval.samples.list.queryOptions({
      id: setId,
      version,
      query: { limit: PAGE, ...(cursor ? { cursor } : {}), ...(url.q ? { q: url.q } : {}) },
    }),
    placeholderData: keepPreviousData,
  });
  const { reset } = pages;
  useEffect(() => reset(), [url.q, setId, version, reset]);

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
        <>
          <Table caption={`Samples of version ${version}`}>
            <THead>
              <tr>
                <Th className="w-20">Key</Th>
                <Th>Question</Th>
                <Th>Expected points</Th>
                <Th className="w-36">Scenario</Th>
                <Th className="w-28">Source</Th>
              </tr>
            </THead>
            <tbody>
              {rows.map((s) => (
                <Tr key={s.id}>
                  <Td className="font-mono text-xs text-slate-600">{s.key}</Td>
                  <Td className="max-w-md">
                    <button
                      type="button"
                      onClick={() => setEditing(s)}
                      className="text-left font-medium text-slate-900 hover:text-brand-700 hover:underline"
                    >
                      {s.question}
                    </button>
                    {s.script && (
                      <div className="mt-1">
                        <Badge tone="info" title="A multi-turn script: preset turns are injected as context">
                          💬 {s.script.length} turns · {s.script.filter((t) => t.preset).length} preset
                        </Badge>
                      </div>
                    )}
                  </Td>
                  <Td>
                    <ul className="flex flex-wrap gap-1">
                      {s.expectedPoints.map((p, i) => (
                        <li key={i} className="rounded-md bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                          {p}
                        </li>
                      ))}
                      {s.expectedPoints.length === 0 && (
                        <li className="text-xs text-amber-700">no expected points yet</li>
                      )}
                    </ul>
                  </Td>
                  <Td className="text-slate-700">{s.classification || "—"}</Td>
                  <Td className="text-xs">
                    {s.sourceTraceId ? (
                      <TraceButton traceId={s.sourceTraceId} label={`online …${s.sourceTraceId.slice(-6)}`} />
                    ) : (
                      <span className="text-slate-500">written</span>
                    )}
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
          <Pagination
            label="Sample pages"
            from={page * PAGE + 1}
            to={page * PAGE + rows.length}
            total={samples.data?.matching}
            hasPrev={page > 0}
            hasNext={!!samples.data?.nextCursor}
            onPrev={pages.prev}
            onNext={() => pages.next(samples.data?.nextCursor)}
          />
        </>
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

function ExportMenu({ setId, version }: { setId: string; version: number }) {
  const href = (format: string) =>
    `/api/eval/sets/${encodeURIComponent(setId)}/versions/${version}/export?format=${format}`;
  return (
    <details className="relative">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
        Export
        <Icon d={ICONS.chevronDown} className="h-3.5 w-3.5" strokeWidth={2} />
      </summary>
      <ul className="absolute right-0 z-20 mt-1 w-44 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
        {(
          [
            ["json", "JSON"],
            ["jsonl", "JSON Lines"],
            ["csv", "CSV (spreadsheets)"],
          ] as const
        ).map(([f, label]) => (
          <li key={f}>
            <a
              href={href(f)}
              download
              className="block rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
