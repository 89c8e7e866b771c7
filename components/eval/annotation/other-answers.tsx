"use client";

import { SuggestionBadge } from "../badges";
import { ms } from "../format";
import type { EvalItem } from "../types";

/**
 * A run with repeats > 1 answered the question again: the other answers, each with its machine suggestion, folded
 * away until asked for (people judge the first answer, above; these are never judged and never counted by a gate).
 */
export function OtherAnswers({ item }: { item: EvalItem }) {
  const others = item.otherAnswers;
  if (!others.length) return null;
  const firstVerdict = item.suggestion?.verdict ?? null;
  const differ = others.filter((o) => o.suggestion.verdict !== firstVerdict).length;
  return (
    <details className="group rounded-lg border border-slate-200 px-3 py-2">
      <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">
        Other answers ({others.length}){" "}
        <span className="font-normal normal-case">
          {differ ? `· ${differ} with another suggestion than the first` : "· same suggestion as the first"}
        </span>
      </summary>
      <ol className="mt-2 space-y-3" aria-label="Other answers">
        {others.map((o) => (
          <li key={o.number} className="space-y-1">
            <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
              <span className="font-medium text-slate-700">Answer {o.number}</span>
              <SuggestionBadge verdict={o.suggestion.verdict} />
              <span>
                {ms(o.latencyMs)} · {o.promptTokens + o.completionTokens} tokens
              </span>
            </div>
            {o.answer ? (
              <p className="whitespace-pre-wrap wrap-break-word rounded-lg bg-slate-50 p-3 text-sm leading-relaxed text-slate-800">
                {o.answer}
              </p>
            ) : (
              <p className="text-sm text-slate-500">No answer{o.error ? `: ${o.error}` : "."}</p>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
