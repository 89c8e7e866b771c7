"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { deniedReason, useCaps, EvalLink } from "../context";
import { ago, when, words } from "../format";
import { TraceButton } from "../trace-steps";
import type { BoardCard } from "../types";
import { useBoardActions } from "./use-board-actions";

const STAGES = [
  { id: "candidate", label: "In pool", hint: "added from a lead, not confirmed yet" },
  { id: "confirmed", label: "Confirmed", hint: "a person confirmed it belongs in the pool; expectations next" },
  { id: "expectations", label: "Expectations added", hint: "confirmed, with expected points: ready to freeze" },
  { id: "frozen", label: "Frozen", hint: "in a frozen version, not run yet" },
  { id: "in_run", label: "In a run", hint: "its latest run and verdict" },
  { id: "bad_case", label: "Bad Case", hint: "a fail being fixed, until a re-run passes it and it is verified" },
  { id: "verified", label: "Verified", hint: "its Bad Case was verified by a re-run" },
] as const;
const SHOWN = 30;

/**
 * The online loop as a board: a lead count leading in, then every online-sourced pool sample by stage, each card with
 * its source trace, its history and its next step (confirm, expectations inline, freeze, run, judge, Bad Case, verify).
 */
export function LoopBoard({
  agentId,
  newLeads,
  onReviewLeads,
}: {
  agentId: string;
  newLeads: number | null;
  onReviewLeads: () => void;
}) {
  const trpc = useTRPC();
  // the board sums up work done in the other tabs (verdicts, Bad Cases, re-runs): read it afresh whenever it is shown
  const board = useQuery({ ...trpc.eval.online.board.queryOptions({ agentId }), refetchOnMount: "always" });
  const cards = (board.data?.cards ?? []) as BoardCard[];
  const actions = useBoardActions(board.data?.drafts);
  const { caps, role } = useCaps();
  if (board.error) return <ErrorState error={board.error} onRetry={() => board.refetch()} />;
  if (!board.data) return <LoadingRows rows={2} label="Loading the board" />;
  const manageTitle = caps.manage ? undefined : deniedReason(role, "manage");
  return (
    <section aria-labelledby="loop-board" className="space-y-2">
      <h2 id="loop-board" className="text-lg font-semibold text-slate-900">
        The online feedback loop
      </h2>
      <p className="max-w-3xl text-sm text-slate-600">
        Low-scored and flagged answers become leads; a lead added to a regression pool is confirmed, given expectations,
        frozen and run at pipeline_live; its fails become Bad Cases, verified by a re-run on the fixed agent.
      </p>
      <p className="text-xs text-slate-500">
        Eight columns in one row: scroll sideways for the later stages; a long column scrolls inside itself.
      </p>
      {/* one row of fixed-width columns that scrolls sideways; each column is at most a screen tall and scrolls its cards */}
      <div
        role="region"
        aria-label="Board columns"
        tabIndex={0}
        className="flex items-start gap-3 overflow-x-auto pb-2"
      >
        <section
          aria-label={`Leads: ${newLeads ?? "…"} new`}
          className="w-64 shrink-0 rounded-xl bg-amber-50 p-2 ring-1 ring-amber-200"
        >
          <h3
            className="flex items-baseline justify-between px-1 text-sm font-semibold text-slate-800"
            title="New leads in the chosen time range (see the list below)"
          >
            Leads <span className="text-xs font-normal text-slate-600">{newLeads ?? "…"} new</span>
          </h3>
          <p className="mt-2 px-1 text-xs text-slate-700">
            Online answers scored low or flagged by the guardrail rules, not yet in a pool or dismissed.
          </p>
          <Button size="sm" variant="secondary" className="mt-2 w-full" onClick={onReviewLeads}>
            Review the new leads ↓
          </Button>
        </section>
        {STAGES.map((st) => {
          const col = cards.filter((c) => c.stage === st.id);
          const versions = [...new Map(col.map((c) => [`${c.setId}:${c.version}`, c])).values()];
          return (
            <section
              key={st.id}
              aria-label={`${st.label}: ${col.length}`}
              className="flex max-h-[calc(100dvh-5rem)] w-64 shrink-0 flex-col rounded-xl bg-slate-100 p-2"
            >
              <h3
                className="flex shrink-0 items-baseline justify-between px-1 text-sm font-semibold text-slate-800"
                title={st.hint}
              >
                {st.label} <span className="text-xs font-normal text-slate-600">{col.length}</span>
              </h3>
              {col.length === 0 && <p className="mt-2 px-1 text-xs text-slate-600">{st.hint}.</p>}
              {st.id === "expectations" &&
                versions.map((v) => (
                  <Button
                    key={`${v.setId}:${v.version}`}
                    size="sm"
                    variant="secondary"
                    className="mt-2 w-full shrink-0"
                    disabled={!caps.manage || actions.busy.freeze}
                    title={manageTitle ?? "Freezing makes the version immutable; samples without expectations block it"}
                    onClick={() => actions.freeze(v)}
                  >
                    Freeze {v.setName} v{v.version}
                  </Button>
                ))}
              {st.id === "frozen" &&
                versions.map((v) => (
                  <Button
                    key={`${v.setId}:${v.version}`}
                    size="sm"
                    className="mt-2 w-full shrink-0"
                    disabled={!caps.manage || actions.busy.run}
                    title={manageTitle ?? "An in-platform run at pipeline_live (real calls, like online)"}
                    onClick={() => actions.runAtLive(v)}
                  >
                    Run v{v.version} at pipeline_live
                  </Button>
                ))}
              <ul className="mt-2 min-h-0 flex-1 space-y-2 overflow-y-auto">
                {col.slice(0, SHOWN).map((c) => (
                  <SampleCard
                    key={`${c.setId}:${c.key}`}
                    card={c}
                    actions={actions}
                    manageTitle={manageTitle}
                    canManage={caps.manage}
                  />
                ))}
                {col.length > SHOWN && <li className="px-1 text-xs text-slate-600">and {col.length - SHOWN} more</li>}
              </ul>
            </section>
          );
        })}
      </div>
    </section>
  );
}

function SampleCard({
  card: c,
  actions,
  manageTitle,
  canManage,
}: {
  card: BoardCard;
  actions: ReturnType<typeof useBoardActions>;
  manageTitle?: string;
  canManage: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const draft = c.versionStatus === "draft";
  return (
    <li
      aria-label={`${c.key}: ${c.question.slice(0, 60)}`}
      className="rounded-lg bg-white p-2 text-xs shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex justify-between gap-2 text-slate-500">
        <span className="font-mono">{c.key}</span>
        <span title={c.setName}>
          {c.setName.length > 18 ? `${c.setName.slice(0, 18)}…` : c.setName} v{c.version}
        </span>
      </div>
      <p className="mt-1 line-clamp-2 text-sm text-slate-800">{c.question}</p>
      <div className="mt-1 flex flex-wrap items-center gap-1.5">
        {!c.confirmed && draft && <Badge tone="warning">not confirmed</Badge>}
        {c.run && (answered(c.run) ? <VerdictBadge verdict={c.run.verdict} /> : <Badge>no answer yet</Badge>)}
        {c.badCase && (
          <Badge tone={c.badCase.status === "verified" ? "success" : "danger"}>
            Bad Case {words(c.badCase.status)}
          </Badge>
        )}
        <TraceButton traceId={c.sourceTraceId} label="source trace" />
      </div>
      {draft && c.points.length > 0 && !editing && (
        <ul className="mt-1 list-disc pl-4 text-slate-700" aria-label={`Expected points of ${c.key}`}>
          {c.points.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
      {editing && (
        <PointsEditor
          card={c}
          busy={actions.busy.points}
          onSave={(points) => actions.savePoints(c, points, () => setEditing(false))}
          onCancel={() => setEditing(false)}
        />
      )}
      <div className="mt-2 flex flex-wrap gap-x-3 gap-y-1">
        {c.stage === "candidate" && (
          <Button
            size="sm"
            disabled={!canManage || actions.busy.confirm}
            title={manageTitle ?? "It belongs in the pool: confirm it, then add expected points"}
            onClick={() => actions.confirm(c)}
          >
            Confirm
          </Button>
        )}
        {draft && !editing && (
          <Button
            size="sm"
            variant="secondary"
            disabled={!canManage}
            title={manageTitle}
            onClick={() => setEditing(true)}
          >
            {c.points.length ? "Edit expectations" : "Add expectations"}
          </Button>
        )}
        {c.stage === "frozen" && <span className="text-slate-500">frozen, not run yet</span>}
        {c.run && <RunLine run={c.run} />}
        {c.badCase && (
          <EvalLink
            to={{ tab: "bad-cases", case: c.badCase.id }}
            className="font-medium text-brand-700 hover:underline"
          >
            {c.stage === "bad_case" && c.badCase.verifyIn ? `Passed in ${c.badCase.verifyIn}: verify →` : "Bad Case →"}
          </EvalLink>
        )}
        {c.compare && (
          <EvalLink
            to={{ tab: "runs", view: "compare", a: c.compare.a, b: c.compare.b, q: c.key }}
            className="font-medium text-brand-700 hover:underline"
          >
            Compare {c.compare.a} → {c.compare.b}
          </EvalLink>
        )}
      </div>
      <History card={c} />
    </li>
  );
}

type CardRun = NonNullable<BoardCard["run"]>;
/** Only an answered (or failed) item can be judged: the others have no answer for P/F to judge. */
const answered = (r: CardRun) => r.verdict !== null || r.itemStatus === "answered" || r.itemStatus === "failed";

/** The latest run's item: its verdict, "Judge in R-…" when it has an answer, else why there is nothing to judge yet. */
function RunLine({ run: r }: { run: CardRun }) {
  if (answered(r))
    return (
      <EvalLink
        to={{ tab: "annotation", run: r.shortId, item: r.itemId }}
        className="font-medium text-brand-700 hover:underline"
      >
        {r.verdict ? `${r.shortId}: ${r.verdict}` : `Judge in ${r.shortId}`} →
      </EvalLink>
    );
  const why =
    r.itemStatus === "cancelled"
      ? `${r.shortId} was cancelled before this question was answered: nothing to judge.`
      : r.status === "created"
        ? `${r.shortId} is not started: no answer to judge yet (Pass/Fail open once it is answered).`
        : r.status === "failed" || r.status === "cancelled"
          ? `${r.shortId} ${words(r.status)} before this question was answered: nothing to judge.`
          : `${r.shortId} is answering: no answer to judge yet (Pass/Fail open once it is answered).`;
  return (
    <span className="basis-full text-slate-600">
      {why}{" "}
      <EvalLink to={{ tab: "runs", run: r.shortId }} className="font-medium text-brand-700 hover:underline">
        Open {r.shortId} →
      </EvalLink>
    </span>
  );
}

function VerdictBadge({ verdict }: { verdict: "pass" | "fail" | null }) {
  return (
    <Badge tone={verdict === "pass" ? "success" : verdict === "fail" ? "danger" : "neutral"}>
      {verdict ?? "not judged"}
    </Badge>
  );
}

/** Expected points, one per line, saved through the sample update service (drafts only). */
function PointsEditor({
  card,
  busy,
  onSave,
  onCancel,
}: {
  card: BoardCard;
  busy: boolean;
  onSave: (points: string[]) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(card.points.join("\n"));
  const points = text
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <div className="mt-2 space-y-1">
      <label className="block text-xs font-medium text-slate-600">
        Expected points of {card.key} (one per line)
        <textarea
          className={`${inputClass} mt-1`}
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoFocus
        />
      </label>
      <div className="flex gap-2">
        <Button size="sm" disabled={busy || !points.length} onClick={() => onSave(points)}>
          Save points
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/** What happened to the sample, oldest first. */
function History({ card }: { card: BoardCard }) {
  const line = (h: BoardCard["history"][number]) => {
    const by = h.by ? ` by ${h.by}` : "";
    switch (h.kind) {
      case "added":
        return `Added to v${h.version}${by}`;
      case "confirmed":
        return `Confirmed${by}`;
      case "expectations":
        return `${h.points} expected point${h.points === 1 ? "" : "s"}`;
      case "frozen":
        return `Frozen in v${h.version}${by}${h.unconfirmed ? " without a confirmation (the freeze took it in)" : ""}`;
      case "run":
        return `In ${h.run?.shortId} (v${h.version}): ${h.verdict ?? "not judged"}`;
      case "bad_case":
        return `Bad Case from ${h.run?.shortId}${by}, now ${words(h.status ?? "")}`;
      case "verified":
        return `Verified by ${h.run?.shortId}`;
    }
  };
  return (
    <details className="mt-2 text-slate-600">
      <summary className="cursor-pointer text-xs">History ({card.history.length})</summary>
      <ol className="mt-1 space-y-0.5 border-l-2 border-slate-200 pl-2" aria-label={`History of ${card.key}`}>
        {card.history.map((h, i) => (
          <li key={i}>
            {line(h)}
            {h.at && (
              <span className="text-slate-500" title={when(h.at)}>
                {" "}
                · {ago(h.at)}
              </span>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
