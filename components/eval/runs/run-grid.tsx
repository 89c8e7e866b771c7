"use client";

import { cn } from "@/components/ui/cn";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { EvalLink } from "../context";
import type { EvalCompareMany } from "../types";

type Cell = EvalCompareMany["questions"][number]["cells"][number];

/**
 * The question x run grid: one row per question, one column per run (oldest first, the latest last). The table
 * scrolls inside its focusable region (arrow keys and Page keys scroll it) under a sticky header, and the question
 * column stays on the left. Each cell is the human verdict, with the machine suggestion when it differs; a cell links
 * to the item in its run's annotation queue.
 */
export function RunGrid({ c }: { c: EvalCompareMany }) {
  const latest = c.runs.length - 1;
  return (
    <Table caption="Questions by run" maxHeight="min(70vh, 44rem)" className="relative">
      <THead sticky>
        <tr>
          <Th className="sticky left-0 z-20 min-w-60 bg-slate-50">Question</Th>
          {c.runs.map((r, i) => (
            <Th key={r.id} className="min-w-24 whitespace-nowrap text-center">
              <span className="font-mono normal-case tracking-normal text-slate-700">{r.shortId}</span>
              <div className="normal-case tracking-normal font-normal text-slate-500">
                agent v{r.workflowVersion}
                {i === latest ? " · latest" : ""}
              </div>
            </Th>
          ))}
        </tr>
      </THead>
      <tbody>
        {c.questions.map((q) => (
          <Tr key={q.key} className={q.changed ? "bg-amber-50/40" : ""}>
            <Th scope="row" className="sticky left-0 z-[5] max-w-80 bg-white text-left font-normal">
              <div className="flex items-baseline gap-2">
                <span className="shrink-0 font-mono text-xs text-slate-500">{q.key}</span>
                {q.changed && (
                  <span className="shrink-0 rounded bg-amber-100 px-1 text-[11px] font-medium text-amber-900">
                    changed
                  </span>
                )}
              </div>
              <div className="line-clamp-2 text-slate-800" title={q.question}>
                {q.question}
              </div>
            </Th>
            {q.cells.map((cell, i) => (
              <Td key={c.runs[i]!.id} className="text-center">
                <GridCell cell={cell} run={c.runs[i]!.shortId} question={q.key} />
              </Td>
            ))}
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

const TONE = {
  pass: "bg-emerald-100 text-emerald-900",
  fail: "bg-red-100 text-red-900",
  none: "bg-slate-100 text-slate-700",
};

function GridCell({ cell, run, question }: { cell: Cell; run: string; question: string }) {
  if (!cell) return <span className="text-xs text-slate-600">not in run</span>;
  const verdict = cell.human ?? "none";
  const differs = cell.machine && cell.machine !== cell.human;
  // the link's name is its text: the question and run for screen readers, then what is shown
  return (
    <EvalLink
      to={{ tab: "annotation", run, item: cell.itemId }}
      title={`${question} in ${run}: ${cell.human ?? "no verdict"}${cell.machine ? `, machine ${cell.machine}` : ""}`}
      className={cn(
        "inline-flex min-w-14 flex-col items-center rounded px-2 py-0.5 text-xs font-medium hover:ring-2 hover:ring-brand-300",
        TONE[verdict],
      )}
    >
      <span className="sr-only">
        {question} in {run}:{" "}
      </span>
      {cell.human ?? (
        <>
          <span aria-hidden="true">—</span>
          <span className="sr-only">no verdict</span>
        </>
      )}
      {differs && <span className="text-[10px] font-normal">machine {cell.machine}</span>}
    </EvalLink>
  );
}
