"use client";

import { Progress } from "@/components/ui/progress";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { EvalLink } from "../context";
import { RunStatusBadge, TierBadge } from "../badges";
import { ago, count, when } from "../format";
import type { RunRow } from "../types";

/**
 * The one runs table, for the runs tab (a run's page, the bar shows answered) and the annotation tab (the run's
 * queue, the bar shows judged). Five columns (six in the runs tab, whose first picks runs to compare) that all fit at
 * 1024 px beside the navigation: Run IDs on one line, long
 * set names wrap; the mode and tier sit under the status, what is judged under the bar. Narrower, the table scrolls
 * sideways inside its focusable region, never the page.
 */
export function RunsTable({
  caption,
  rows,
  opens,
  pick,
}: {
  caption: string;
  rows: RunRow[];
  /** where a Run ID leads: the run's page (runs tab) or its annotation queue (annotation tab) */
  opens: "runs" | "annotation";
  /** runs picked for a comparison (a checkbox per run, at most `max`; the runs tab) */
  pick?: { picked: readonly string[]; toggle: (shortId: string) => void; max: number };
}) {
  const judging = opens === "annotation";
  return (
    <Table caption={caption}>
      <THead>
        <tr>
          {pick && (
            <Th className="w-10">
              <span className="sr-only">Compare</span>
            </Th>
          )}
          <Th className="whitespace-nowrap">Run</Th>
          <Th>Set</Th>
          <Th>
            Status <span className="normal-case tracking-normal">· mode · tier</span>
          </Th>
          <Th className={judging ? "min-w-56" : "min-w-44"}>
            {judging ? (
              "Judged"
            ) : (
              <>
                Answered <span className="normal-case tracking-normal">· judged</span>
              </>
            )}
          </Th>
          <Th>Created</Th>
        </tr>
      </THead>
      <tbody>
        {rows.map((r) => (
          <Tr key={r.id}>
            {pick && (
              <Td>
                <input
                  type="checkbox"
                  className="size-4 accent-brand-600"
                  aria-label={`Compare ${r.shortId}`}
                  checked={pick.picked.includes(r.shortId)}
                  disabled={!pick.picked.includes(r.shortId) && pick.picked.length >= pick.max}
                  title={
                    !pick.picked.includes(r.shortId) && pick.picked.length >= pick.max
                      ? `At most ${pick.max} runs can be compared at once`
                      : undefined
                  }
                  onChange={() => pick.toggle(r.shortId)}
                />
              </Td>
            )}
            <Td className="whitespace-nowrap">
              <EvalLink
                to={{ tab: opens, run: r.shortId }}
                className="font-mono font-semibold text-brand-700 hover:underline"
              >
                {r.shortId}
              </EvalLink>
              {r.environment && (
                <div className="max-w-32 truncate text-xs text-slate-500" title={r.environment}>
                  {r.environment}
                </div>
              )}
            </Td>
            <Td className="max-w-64">
              <div className="break-words font-medium text-slate-800">{r.setName}</div>
              <div className="text-xs text-slate-500">
                v{r.setVersion} · agent v{r.workflowVersion}
              </div>
            </Td>
            <Td>
              <RunStatusBadge status={r.status} />
              <div className="mt-1 flex flex-wrap items-center gap-1 text-xs text-slate-600">
                {r.mode === "pasted" ? "pasted answers" : "in platform"} <TierBadge tier={r.tier} />
              </div>
            </Td>
            <Td>
              {judging ? (
                <Progress
                  value={r.progress.judged}
                  max={r.progress.total}
                  label={`Questions of ${r.shortId} with a verdict`}
                />
              ) : (
                <Progress
                  value={r.progress.done}
                  max={r.progress.total}
                  failed={r.progress.failed}
                  label={`Answered items of ${r.shortId}`}
                />
              )}
              <div className="mt-1 whitespace-nowrap text-xs tabular-nums text-slate-700">
                {judging ? null : "judged "}
                <JudgedCell progress={r.progress} />
              </div>
            </Td>
            <Td className="text-slate-600">
              <span className="whitespace-nowrap" title={when(r.createdAt)}>
                {ago(r.createdAt)}
              </span>
              <div className="max-w-32 truncate text-xs text-slate-500" title={r.createdByLabel ?? undefined}>
                {r.createdByLabel ?? "—"}
              </div>
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Human-judged / total, with adopted machine suggestions apart: "12 + 18 adopted / 30" (the server counts both). */
export function JudgedCell({ progress: p }: { progress: { human: number; adopted: number; total: number } }) {
  const human = p.human;
  const said = `${human} judged by people${p.adopted ? `, ${p.adopted} adopted from suggestions` : ""}, of ${p.total}`;
  return (
    <span title={said}>
      <span className="font-medium text-slate-900">{count(human)}</span>
      {p.adopted > 0 && <span className="text-slate-500"> + {count(p.adopted)} adopted</span>}
      <span className="text-slate-500"> / {count(p.total)}</span>
    </span>
  );
}
