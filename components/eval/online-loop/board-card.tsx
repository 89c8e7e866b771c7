"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { EvalLink } from "../context";
import { words } from "../format";
import { TraceButton } from "../trace-steps";
import type { BoardCard } from "../types";
import { CardHistory } from "./card-history";
import type { useBoardActions } from "./use-board-actions";

/** One sample on the board: its source trace, verdict and Bad Case, and its next step. */
export function SampleCard({
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
      <CardHistory card={c} />
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
