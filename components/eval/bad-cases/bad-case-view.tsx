"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { deniedReason, useCaps, EvalLink } from "../context";
import { BadCaseBadge } from "../badges";
import { Breadcrumbs } from "../breadcrumbs";
import { ago, when, words } from "../format";
import { StatusSelect } from "./status-select";
import { useBadCase, useRerunBatch, useUpdateBadCase } from "./use-bad-cases";
import { LaterVerdict, Verify } from "./verify";

/** A Bad Case's page: the failed answer, the re-run and verifying, its history and notes. */
export function BadCaseView({ id }: { id: string }) {
  const { caps, role } = useCaps();
  const { bc, item } = useBadCase(id);
  const [notes, setNotes] = useState<string | null>(null);
  const save = useUpdateBadCase({
    success: () => "Bad Case saved",
    failure: "Not saved",
    onDone: () => setNotes(null),
  });
  // the same batch again, created AND started (like the board's run button)
  const runs = useRerunBatch();
  if (bc.error) return <ErrorState error={bc.error} onRetry={() => bc.refetch()} />;
  if (!bc.data) return <LoadingRows rows={4} label="Loading the Bad Case" />;
  const b = bc.data;
  const later = b.latestRun;
  return (
    <div className="space-y-5">
      <Breadcrumbs items={[{ label: "Bad Case", to: { tab: "bad-cases" } }, { label: b.sampleKey }]} />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold">{b.title}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {b.setName} · question {b.sampleKey} · run {b.runShortId} · created {ago(b.createdAt)} by{" "}
            {b.createdByLabel ?? "—"}
          </p>
        </div>
        <StatusSelect badCase={b} />
      </div>
      <div className="grid gap-5 lg:grid-cols-[1fr_22rem]">
        <Card title="The failed answer">
          <div className="space-y-3 text-sm">
            <p className="font-medium text-slate-900">{b.question}</p>
            {item.data && (
              <>
                <p className="whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-slate-800">
                  {item.data.answer || item.data.error || "(no answer)"}
                </p>
                {item.data.verdict?.basis && (
                  <p className="text-slate-700">
                    <span className="font-medium">Basis:</span> {item.data.verdict.basis}
                  </p>
                )}
              </>
            )}
            <div>
              <h3 className="font-medium text-slate-800">Expected points</h3>
              {b.expectedPoints.length ? (
                <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700" aria-label="Expected points">
                  {b.expectedPoints.map((p, i) => (
                    <li key={i}>{p}</li>
                  ))}
                </ul>
              ) : (
                <p className="mt-1 text-slate-500">None.</p>
              )}
            </div>
            <p className="text-slate-700">
              <span className="font-medium">Attribution:</span> {b.attribution ? words(b.attribution) : "—"} ·{" "}
              <span className="font-medium">Scenario:</span> {b.classification || "—"}
            </p>
            <EvalLink
              to={{ tab: "annotation", run: b.runShortId, item: b.itemId }}
              className="inline-block font-medium text-brand-700 hover:underline"
            >
              Open it in annotation →
            </EvalLink>
          </div>
        </Card>
        <Card title="After the fix">
          <div className="space-y-3 text-sm">
            <p className="text-slate-600">
              Fix the agent (a new version), then re-run the same batch in the platform: the question should now pass.
              Once a person passed it in a run of a version newer than v{b.foundInVersion}, verify the Bad Case.
            </p>
            <Button
              variant="secondary"
              className="w-full"
              disabled={!caps.manage || runs.isPending}
              title={caps.manage ? "Creates the re-run and starts it" : deniedReason(role, "manage")}
              onClick={() => runs.rerun(b.runId)}
            >
              {runs.isPending ? "Starting the re-run…" : "Re-run the same batch"}
            </Button>
            {later ? (
              <div className="rounded-lg bg-slate-50 p-2" aria-label="The latest re-run">
                <p className="text-slate-800">
                  <span className="font-medium">
                    {later.runId === b.verifiableBy?.runId ? "Re-run" : "Latest re-run"}
                  </span>{" "}
                  <EvalLink
                    to={{ tab: "annotation", run: later.runShortId, item: later.itemId }}
                    className="font-mono font-medium text-brand-700 hover:underline"
                  >
                    {later.runShortId}
                  </EvalLink>
                  : <LaterVerdict later={later} />
                </p>
                <EvalLink
                  to={{ tab: "runs", view: "compare", a: b.runShortId, b: later.runShortId, q: b.sampleKey }}
                  className="mt-1 block font-medium text-brand-700 hover:underline"
                >
                  Compare {b.runShortId} with {later.runShortId} →
                </EvalLink>
              </div>
            ) : (
              <p className="text-xs text-slate-500">No re-run yet.</p>
            )}
            <Verify badCase={b} />
          </div>
        </Card>
      </div>
      <Card title="History">
        <ol className="space-y-2 text-sm" aria-label="History of the Bad Case">
          {b.history.map((h, i) => (
            <li key={i} className="flex flex-wrap items-baseline gap-2">
              <span className="w-32 shrink-0 text-xs text-slate-500" title={when(h.at)}>
                {ago(h.at)}
              </span>
              {h.kind === "created" ? (
                <span>
                  Created from {h.runShortId ?? "its run"} by {h.byLabel ?? "—"}
                </span>
              ) : (
                <span>
                  {h.fromStatus ? <BadCaseBadge status={h.fromStatus} /> : null} → <BadCaseBadge status={h.toStatus} />{" "}
                  by {h.byLabel ?? "—"}
                  {h.toStatus === "verified" && h.runShortId && (
                    <>
                      {" "}
                      · passed (human verdict) in{" "}
                      <EvalLink
                        to={{ tab: "runs", run: h.runShortId }}
                        className="font-mono text-brand-700 hover:underline"
                      >
                        {h.runShortId}
                      </EvalLink>
                    </>
                  )}
                  {h.reason && <> · with a reason: “{h.reason}”</>}
                </span>
              )}
            </li>
          ))}
        </ol>
      </Card>
      <Card title="Notes">
        <textarea
          className={inputClass}
          rows={3}
          value={notes ?? b.notes}
          onChange={(e) => setNotes(e.target.value)}
          disabled={!caps.annotate}
          aria-label="Notes"
        />
        <div className="mt-2 flex justify-end">
          <Button
            size="sm"
            disabled={notes === null || save.isPending || !caps.annotate}
            onClick={() => save.mutate({ id: b.id, body: { notes: notes ?? "" } })}
          >
            Save notes
          </Button>
        </div>
      </Card>
    </div>
  );
}
