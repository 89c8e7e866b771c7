"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, Stat } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { deniedReason, useCaps, useEvalUrl } from "../context";
import { pct } from "../format";
import type { EvalSetDetail } from "../types";
import { ChangeJudgeDialog } from "./change-judge-dialog";
import { kappaText } from "./judge-figures";
import { useJudgeCalibration } from "./use-judge-calibration";

const TYPE_LABEL = { builtin: "built-in", llm: "LLM", agent: "judge agent" } as const;

/**
 * The set's judge (issue 22): which judge makes the machine suggestions of runs created from now on, and how far
 * people agree with it on this set: Cohen's κ, fail precision and recall over the human-typed verdicts with their n,
 * the same per scenario, and "too few verdicts to judge the judge" below 20 (the server's note). `judge=` in the URL
 * (the report's "Judge vs people" link) shows that judge's calibration instead of the current one's. "Change judge…"
 * opens the comparison before the switch (`change-judge-dialog.tsx`).
 */
export function JudgeCard({ set }: { set: EvalSetDetail }) {
  const { caps, role } = useCaps();
  const [url, go] = useEvalUrl();
  const [changing, setChanging] = useState(false);
  const cal = useJudgeCalibration(set.id, url.judge);
  const c = cal.data;
  const other = c && c.judge.key !== c.currentJudge;
  const current = c?.judges.find((j) => j.judge.key === c.currentJudge)?.judge;

  return (
    <Card
      id="judge"
      title="Judge"
      description="Makes the machine suggestions of runs created from now on (a run keeps the judge it was created with). The figures compare its suggestions with people's typed verdicts on this set."
      actions={
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setChanging(true)}
          disabled={!caps.manage || !c}
          title={caps.manage ? undefined : deniedReason(role, "manage")}
        >
          Change judge…
        </Button>
      }
    >
      {cal.error ? (
        <ErrorState error={cal.error} onRetry={() => cal.refetch()} />
      ) : !c ? (
        <LoadingRows rows={3} label="Loading the judge's calibration" />
      ) : (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <span>{other ? "Calibration of" : "Current judge:"}</span>
            <strong className="font-semibold text-slate-900" data-testid="judge-label">
              {c.judge.label}
            </strong>
            <Badge tone="neutral" size="sm">
              {TYPE_LABEL[c.judge.type]}
            </Badge>
            {c.judge.model && <span className="text-xs text-slate-500">model {c.judge.model}</span>}
          </div>
          {other && (
            <p className="text-sm text-slate-600">
              This is not the set&apos;s current judge ({current?.label ?? c.currentJudge}).{" "}
              <button
                type="button"
                className="font-medium text-brand-700 hover:underline"
                onClick={() => go({ judge: undefined })}
              >
                Show the current judge
              </button>
            </p>
          )}
          {c.humanTyped === 0 ? (
            <EmptyState title="No typed verdicts yet">
              Once people type verdicts on this set&apos;s runs, the judge&apos;s agreement with them appears here.
            </EmptyState>
          ) : (
            <>
              <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
                <Stat label="Cohen's κ" value={kappaText(c.kappa.value)} hint={`${c.pairs} pass or fail suggestions`} />
                <Stat
                  label="Fail precision"
                  value={pct(c.failPrecision.value)}
                  hint={`${c.failPrecision.count} of the judge's ${c.failPrecision.of} fails are real`}
                />
                <Stat
                  label="Fail recall"
                  value={pct(c.failRecall.value)}
                  hint={`caught ${c.failRecall.count} of people's ${c.failRecall.of} fails`}
                />
                <Stat
                  label="Verdicts compared (n)"
                  value={c.n}
                  hint={`of ${c.humanTyped} human-typed · ${pct(c.unknownRate.value)} unknown`}
                />
              </dl>
              {c.note && (
                <p
                  className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
                  role="note"
                >
                  {c.note}
                </p>
              )}
              <Table caption="The judge against people per scenario">
                <THead>
                  <tr>
                    <Th>Scenario</Th>
                    <Th>n</Th>
                    <Th>Agreement</Th>
                    <Th>κ</Th>
                    <Th>Fail precision</Th>
                    <Th>Fail recall</Th>
                  </tr>
                </THead>
                <tbody>
                  {c.byScenario.map((s) => (
                    <Tr key={s.name}>
                      <Td className="font-medium text-slate-800">{s.name}</Td>
                      <Td className="tabular-nums">{s.n}</Td>
                      <Td className="tabular-nums">{pct(s.agreement.value)}</Td>
                      <Td className="tabular-nums">{kappaText(s.kappa.value)}</Td>
                      <Td className="tabular-nums">{pct(s.failPrecision.value)}</Td>
                      <Td className="tabular-nums">{pct(s.failRecall.value)}</Td>
                    </Tr>
                  ))}
                </tbody>
              </Table>
            </>
          )}
        </div>
      )}
      {c && (
        <ChangeJudgeDialog
          open={changing}
          onClose={() => setChanging(false)}
          setId={set.id}
          currentKey={c.currentJudge}
          currentLabel={current?.label ?? (other ? c.currentJudge : c.judge.label)}
          onSwitched={() => go({ judge: undefined })}
        />
      )}
    </Card>
  );
}
