"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Kbd } from "@/components/ui/kbd";
import { BadCaseBadge, FlagBadge, SuggestionBadge, VerdictBadge } from "../badges";
import { ago, ms, when, words } from "../format";
import { PayloadView } from "../payload-view";
import { TraceSteps } from "../trace-steps";
import type { EvalItem, Vocabulary } from "../types";
import { useMakeBadCase } from "../bad-cases/use-bad-cases";
import { ItemCost } from "./item-cost";
import { OtherAnswers } from "./other-answers";
import { ReviewsPanel } from "./reviews-panel";

type Turn = { role: string; content: string; preset?: boolean; answer?: string | null; status?: string };
/** The judge's coverage of one expected point, in the words a person would say it ("covered: <point>"). */
const COVERAGE: Record<string, { label: string; className: string }> = {
  covered: { label: "covered", className: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  partial: { label: "partly covered", className: "bg-amber-50 text-amber-800 ring-amber-200" },
  missing: { label: "missing", className: "bg-red-50 text-red-800 ring-red-200" },
  unclear: { label: "unclear", className: "bg-slate-100 text-slate-700 ring-slate-200" },
};

/**
 * Everything a person needs to judge one answer, with the verdict bar at the bottom (sticky: always on screen in the
 * pane). Reading order: the question, the answer (or the conversation), the rubric (expected points with the judge's
 * coverage, the machine suggestion), then the structured payload, the execution steps and the verdict history. When
 * the item is wide enough (a container query, 40rem) the rubric stands beside the answer; narrower, directly under it.
 */
export function ItemDetail(props: {
  runId: string;
  /** the item as the server sent it; undefined while it loads (no verdict can be given then) */
  item: EvalItem | undefined;
  error: unknown;
  onRetry: () => void;
  position?: number;
  total?: number;
  raw: boolean;
  onToggleRaw: () => void;
  vocabulary?: Vocabulary;
  canJudge: boolean;
  judgeTitle?: string;
  saving: boolean;
  onPass: () => void;
  onFail: () => void;
  /** C: a comment on the verdict, pass included (annotation/fail-dialog.tsx CommentDialog) */
  onComment?: () => void;
  onPrev: () => void;
  onNext: () => void;
  canPrev: boolean;
  canNext: boolean;
}) {
  if (props.error && !props.item) return <ErrorState error={props.error} onRetry={props.onRetry} />;
  if (!props.item) return <LoadingRows rows={8} label="Loading the item" />;
  const it: EvalItem = props.item;
  const s = it.suggestion;
  const turns = (it.turns as Turn[] | null) ?? null;
  const flagMeaning = (f: string) => (props.vocabulary?.guardrailFlags as Record<string, string> | undefined)?.[f];

  return (
    <article
      aria-labelledby="item-question"
      className="@container flex min-h-full flex-col rounded-xl border border-slate-200 bg-white"
    >
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-5 py-3">
        <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
          <span className="max-w-56 truncate font-mono font-semibold" title={it.key}>
            {it.key}
          </span>
          {props.position && props.total ? (
            <span className="text-slate-500">
              {props.position} of {props.total}
            </span>
          ) : null}
          <Badge>{it.verdict?.classification || it.sampleClassification || "no scenario"}</Badge>
          {it.status === "failed" && <Badge tone="danger">execution failed</Badge>}
          {it.audit && (
            <Badge
              tone="violet"
              title="An adopted pass drawn at random for a person to check (the audit of adopted passes)"
            >
              audit item
            </Badge>
          )}
          {it.badCase && <BadCaseBadge status={it.badCase.status} />}
        </div>
        <div className="flex gap-1">
          <Button size="sm" variant="ghost" onClick={props.onPrev} disabled={!props.canPrev}>
            <span aria-hidden="true">↑</span> Previous <Kbd>K</Kbd>
          </Button>
          <Button size="sm" variant="ghost" onClick={props.onNext} disabled={!props.canNext}>
            <span aria-hidden="true">↓</span> Next <Kbd>J</Kbd>
          </Button>
        </div>
      </header>

      <div className="grid flex-1 content-start gap-5 px-5 py-4 @min-[40rem]:grid-cols-[minmax(0,1fr)_minmax(15rem,20rem)] @min-[40rem]:grid-rows-[auto_auto_1fr]">
        <section className="min-w-0 @min-[40rem]:col-span-2">
          <h3 id="item-question" className="text-base font-semibold leading-snug text-slate-900 wrap-break-word">
            {it.question}
          </h3>
          {it.audit && it.verdict?.source === "adopted" && (
            <p
              role="note"
              className="mt-2 rounded-lg border border-violet-200 bg-violet-50 px-3 py-2 text-sm text-violet-950"
            >
              Audit: this pass was adopted from the machine suggestion and drawn at random for a person to check. Read
              the answer, then confirm it with Pass or overturn it with Fail; the gate waits for every audit item.
            </p>
          )}
        </section>

        <div className="min-w-0 space-y-5 @min-[40rem]:col-start-1 @min-[40rem]:row-start-2">
          {turns ? (
            <section aria-label="Conversation">
              <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Conversation</h4>
              <ol className="space-y-2">
                {turns.map((t, i) => (
                  <li key={i} className="space-y-2">
                    <Bubble role={t.role} preset={!!t.preset} text={t.content} />
                    {t.answer !== undefined && t.answer !== null && !t.preset && (
                      <Bubble role="assistant" text={t.answer} answer />
                    )}
                  </li>
                ))}
              </ol>
            </section>
          ) : (
            <section aria-label="Answer">
              <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Answer</h4>
              {it.answer ? (
                <p className="whitespace-pre-wrap wrap-break-word rounded-lg bg-slate-50 p-3 text-sm leading-relaxed text-slate-800">
                  {it.answer}
                </p>
              ) : (
                <p className="text-sm text-slate-500">No answer.</p>
              )}
            </section>
          )}
          {it.error && (
            <p role="note" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              Execution error: {it.error}
            </p>
          )}
        </div>

        <div className="min-w-0 space-y-5 @min-[40rem]:col-start-2 @min-[40rem]:row-span-2 @min-[40rem]:row-start-2">
          <section aria-label="Expected points">
            <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Expected points</h4>
            <ul className="space-y-1.5">
              {it.expectedPoints.map((p, i) => {
                const cov = s?.coverage[i];
                const style = COVERAGE[cov?.status ?? ""] ?? null;
                // the words the judge did not find explain a partial point; under a covered or a missing one they only confuse
                const notFound = cov?.status === "partial" && !cov.evidence ? (cov.missing ?? []) : [];
                return (
                  <li key={i} className="flex items-start gap-2 text-sm">
                    {style && (
                      <span
                        className={`mt-0.5 shrink-0 rounded px-1.5 py-0.5 text-[11px] font-medium ring-1 ring-inset ${style.className}`}
                      >
                        {style.label}
                        <span className="sr-only">: </span>
                      </span>
                    )}
                    <span className="min-w-0 wrap-break-word">
                      <span className="text-slate-800">{p}</span>
                      {cov?.evidence && <span className="block text-xs text-slate-500">“{cov.evidence}”</span>}
                      {notFound.length > 0 && (
                        <span className="block text-xs text-slate-500">
                          {notFound.length === 1 ? "this word is" : "these words are"} not in the answer:{" "}
                          {notFound.map((w) => `“${w}”`).join(", ")}
                        </span>
                      )}
                    </span>
                  </li>
                );
              })}
            </ul>
          </section>

          <section aria-label="Machine suggestion" className="rounded-lg border border-dashed border-slate-300 p-3">
            <div className="flex flex-wrap items-center gap-2">
              <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Machine suggestion</h4>
              <SuggestionBadge verdict={s?.verdict} />
              {s && <span className="text-xs text-slate-500">{s.judge}</span>}
              <span className="text-xs text-slate-500">· assistance only, never counted</span>
            </div>
            {s ? (
              <div className="mt-2 space-y-2 text-sm">
                <p className="text-slate-700">{s.rationale}</p>
                {s.flags.length > 0 && (
                  <ul className="space-y-1" aria-label="Guardrail flags">
                    {s.flags.map((f, i) => (
                      <li key={i} className="flex flex-wrap items-start gap-2">
                        <FlagBadge flag={f.flag} meaning={flagMeaning(f.flag)} />
                        <span className="text-xs text-slate-600">{flagMeaning(f.flag) ?? f.message}</span>
                      </li>
                    ))}
                  </ul>
                )}
                {s.failedRules.length > 0 && (
                  <ul className="space-y-1" aria-label="Failed rules">
                    {s.failedRules.map((r, i) => (
                      <li key={i} className="text-xs text-red-800">
                        ✕ {r.label}: {r.message}
                      </li>
                    ))}
                  </ul>
                )}
                {s.judgeError && <p className="text-xs text-amber-800">{s.judgeError}</p>}
              </div>
            ) : (
              <p className="mt-2 text-sm text-slate-500">No suggestion yet.</p>
            )}
          </section>
        </div>

        <div className="min-w-0 space-y-5 @min-[40rem]:col-start-1 @min-[40rem]:row-start-3">
          {it.payload && <PayloadView payload={it.payload} raw={props.raw} onToggleRaw={props.onToggleRaw} />}

          <OtherAnswers item={it} />

          <ItemCost item={it} />

          {it.traceId && (
            <details className="group">
              <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">
                Execution steps{" "}
                <span className="font-normal normal-case">
                  ({ms(it.latencyMs)} · {it.promptTokens + it.completionTokens} tokens)
                </span>
              </summary>
              <div className="mt-2">
                <TraceSteps traceId={it.traceId} />
              </div>
            </details>
          )}

          <ReviewsPanel runId={props.runId} item={it} vocabulary={props.vocabulary} />
          <History history={it.history} />
        </div>
      </div>

      <VerdictBar {...props} item={it} />
    </article>
  );
}

function Bubble({
  role,
  preset = false,
  text,
  answer = false,
}: {
  role: string;
  preset?: boolean;
  text: string;
  answer?: boolean;
}) {
  const user = role === "user";
  return (
    <div className={`flex ${user ? "justify-end" : "justify-start"}`}>
      <div
        className={`max-w-[85%] rounded-2xl px-3 py-2 text-sm ${user ? "bg-brand-600 text-white" : answer ? "bg-slate-100 text-slate-900" : "border border-slate-200 bg-white text-slate-800"}`}
      >
        <div className={`mb-0.5 text-[11px] font-medium ${user ? "text-brand-100" : "text-slate-500"}`}>
          {role}
          {preset ? " · preset (context, not asked)" : answer ? " · the agent's answer" : ""}
        </div>
        <p className="whitespace-pre-wrap wrap-break-word">{text}</p>
      </div>
    </div>
  );
}

function History({ history }: { history: EvalItem["history"] }) {
  if (!history.length) return null;
  const describe = (v: unknown) => {
    const x = v as { verdict?: string; source?: string; attribution?: string; basis?: string } | null;
    if (!x?.verdict) return "no verdict";
    return `${x.verdict}${x.source === "adopted" ? " (adopted)" : ""}${x.attribution ? ` · ${words(x.attribution)}` : ""}`;
  };
  return (
    <section aria-label="Verdict history">
      <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Verdict history</h4>
      <ol className="space-y-1 text-xs text-slate-600">
        {[...history].reverse().map((h) => (
          <li key={h.id}>
            <time dateTime={String(h.at)} title={when(h.at)}>
              {ago(h.at)}
            </time>{" "}
            · <span className="font-medium text-slate-800">{h.byLabel ?? h.byId ?? "unknown"}</span>:{" "}
            {describe(h.before)} → <span className="font-medium text-slate-800">{describe(h.after)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function VerdictBar({
  item,
  canJudge,
  judgeTitle,
  saving,
  onPass,
  onFail,
  onComment,
  runId,
}: {
  item: EvalItem;
  runId: string;
  canJudge: boolean;
  judgeTitle?: string;
  saving: boolean;
  onPass: () => void;
  onFail: () => void;
  onComment?: () => void;
}) {
  const badCase = useMakeBadCase();
  const v = item.verdict;
  return (
    <footer className="sticky bottom-0 flex flex-wrap items-center justify-between gap-3 rounded-b-xl border-t border-slate-200 bg-white/95 px-5 py-3 backdrop-blur">
      <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
        <span className="text-slate-500">Verdict:</span>
        <VerdictBadge verdict={v?.verdict} source={v?.source} />
        {v && (
          <span className="truncate text-xs text-slate-500">
            {v.byLabel ?? v.byId ?? ""} {ago(v.at)}
            {v.verdict === "fail" && v.attribution ? ` · ${words(v.attribution)}` : ""}
            {v.basis ? ` · “${v.basis.slice(0, 80)}${v.basis.length > 80 ? "…" : ""}”` : ""}
          </span>
        )}
      </div>
      <div className="flex gap-2">
        {v?.verdict === "fail" && !item.badCase && (
          <Button
            variant="secondary"
            disabled={!canJudge || badCase.isPending}
            onClick={() => badCase.mutate({ id: runId, itemId: item.id, body: {} })}
          >
            Make Bad Case
          </Button>
        )}
        {onComment && (
          <Button variant="ghost" disabled={!canJudge || saving} title={judgeTitle} onClick={onComment}>
            Comment <Kbd>C</Kbd>
          </Button>
        )}
        <Button
          variant="secondary"
          className="border-red-300 text-red-700 hover:bg-red-50"
          disabled={!canJudge || saving}
          title={judgeTitle}
          onClick={onFail}
        >
          Fail <Kbd>F</Kbd>
        </Button>
        <Button variant="success" disabled={!canJudge || saving} title={judgeTitle} onClick={onPass}>
          Pass <Kbd>P</Kbd>
        </Button>
      </div>
    </footer>
  );
}
