"use client";

import { Fragment } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { EvalLink, useEvalUrl } from "../context";
import { VerdictBadge } from "../badges";
import { words } from "../format";
import type { EvalCompare } from "../types";
import type { CompareOutcome } from "../url-state";
import { AnswerSide } from "./answer-side";

type Outcome = EvalCompare["questions"][number]["outcome"];
export type OutcomeChoice = { id: CompareOutcome; label: string; tone: BadgeTone };
const ROW_TONE: Partial<Record<Outcome, string>> = {
  regressed: "bg-red-50/70",
  fixed: "bg-emerald-50/70",
  both_fail: "bg-amber-50/50",
};

/** The page's questions of two runs: both verdicts, the outcome, run A's Bad Case; a question opens both answers. */
export function CompareQuestions({ c, outcomes }: { c: EvalCompare; outcomes: OutcomeChoice[] }) {
  const [url, go] = useEvalUrl();
  const rows = c.questions;
  const OUTCOMES = outcomes;
  return (
    <Table caption="Questions of both runs">
      <THead>
        <tr>
          <Th className="w-20">Key</Th>
          <Th>Question</Th>
          <Th className="w-32">A</Th>
          <Th className="w-32">B</Th>
          <Th className="w-32">Outcome</Th>
        </tr>
      </THead>
      <tbody>
        {rows.map((q) => {
          const o = OUTCOMES.find((x) => x.id === q.outcome)!;
          const expanded = url.open === q.key;
          return (
            <Fragment key={q.key}>
              <Tr className={ROW_TONE[q.outcome] ?? ""}>
                <Td className="font-mono text-xs">{q.key}</Td>
                <Td>
                  <button
                    type="button"
                    aria-expanded={expanded}
                    onClick={() => go({ open: expanded ? undefined : q.key }, { replace: true })}
                    className="text-left font-medium text-slate-900 hover:text-brand-700 hover:underline"
                  >
                    <span aria-hidden="true" className="mr-1 inline-block w-3 text-slate-400">
                      {expanded ? "▾" : "▸"}
                    </span>
                    {q.question}
                  </button>
                  {q.classification && <div className="mt-0.5 pl-4 text-xs text-slate-600">{q.classification}</div>}
                </Td>
                <Td>{q.a ? <VerdictBadge verdict={q.a.human} /> : "—"}</Td>
                <Td>{q.b ? <VerdictBadge verdict={q.b.human} /> : "—"}</Td>
                <Td>
                  <Badge tone={o.tone}>{o.label}</Badge>
                  {q.machineOutcome !== q.outcome && (
                    <div className="mt-1 text-xs text-slate-600">machine: {words(q.machineOutcome)}</div>
                  )}
                  {q.badCase && (
                    <div className="mt-1 text-xs">
                      <EvalLink
                        to={{ tab: "bad-cases", case: q.badCase.id }}
                        className={
                          q.badCase.result === "fixed"
                            ? "font-medium text-emerald-700 hover:underline"
                            : q.badCase.result === "still_failing"
                              ? "font-medium text-red-700 hover:underline"
                              : "text-slate-600 hover:underline"
                        }
                      >
                        Bad Case{" "}
                        {q.badCase.result === "fixed"
                          ? "fixed"
                          : q.badCase.result === "still_failing"
                            ? "still failing"
                            : q.badCase.result === "not_judged"
                              ? "not judged in B"
                              : "not in B"}
                      </EvalLink>
                    </div>
                  )}
                </Td>
              </Tr>
              {expanded && (
                <tr>
                  <td colSpan={5} className="bg-slate-50 p-3">
                    <div className="grid gap-3 lg:grid-cols-2">
                      <AnswerSide label={`A · ${c.runA.shortId}`} runId={c.runA.id} itemId={q.a?.itemId} />
                      <AnswerSide label={`B · ${c.runB.shortId}`} runId={c.runB.id} itemId={q.b?.itemId} />
                    </div>
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </Table>
  );
}
