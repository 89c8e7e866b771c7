"use client";

import { Badge } from "@/components/ui/badge";
import { Pagination } from "@/components/ui/pagination";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import type { EvalSample } from "../types";
import { TraceButton } from "../trace-steps";
import { SAMPLES_PAGE as PAGE } from "./use-version-samples";

/** A page of a version's samples: key, question (opens the editor), script marker, expected points, scenario, source. */
export function SamplesTable({
  version,
  rows,
  page,
  matching,
  nextCursor,
  onPrev,
  onNext,
  setEditing,
}: {
  version: number;
  rows: EvalSample[];
  page: number;
  matching: number | undefined;
  nextCursor: string | null | undefined;
  onPrev: () => void;
  onNext: () => void;
  setEditing: (sample: EvalSample) => void;
}) {
  return (
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
                  {s.expectedPoints.length === 0 && <li className="text-xs text-amber-700">no expected points yet</li>}
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
        total={matching}
        hasPrev={page > 0}
        hasNext={!!nextCursor}
        onPrev={onPrev}
        onNext={onNext}
      />
    </>
  );
}
