"use client";

import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { pct } from "../format";
import type { SwitchFigures } from "./use-judge-switch";

/** One calibration figure as the server sends it: `{ value, count, of }`. */
export type Figure = { value: number | null; count: number; of: number };
/** The figures a calibration gives for one judge (or one scenario). */
export type JudgeFigures = {
  n: number;
  pairs: number;
  agreement: Figure;
  kappa: Figure;
  failPrecision: Figure;
  failRecall: Figure;
  unknownRate: Figure;
};

export const kappaText = (v: number | null | undefined) => (v === null || v === undefined ? "—" : v.toFixed(2));
const ofText = (f: Figure) => (f.of ? `${f.count} of ${f.of}` : "none");

/** Two judges side by side on the set's human-typed items: the candidate against the current judge. */
export function CompareTable({
  current,
  candidate,
  currentLabel,
  candidateLabel,
}: {
  current: JudgeFigures | null;
  candidate: JudgeFigures | null;
  currentLabel: string;
  candidateLabel: string;
}) {
  const rows: Array<[string, (f: JudgeFigures) => string]> = [
    ["Items judged", (f) => `${f.n} (${f.pairs} pass or fail)`],
    ["Cohen's κ", (f) => kappaText(f.kappa.value)],
    ["Fail precision", (f) => `${pct(f.failPrecision.value)} (${ofText(f.failPrecision)})`],
    ["Fail recall", (f) => `${pct(f.failRecall.value)} (${ofText(f.failRecall)})`],
    ["Unknown", (f) => pct(f.unknownRate.value)],
  ];
  return (
    <Table caption={`${candidateLabel} against ${currentLabel} on the set's human-typed verdicts`}>
      <THead>
        <tr>
          <Th>Figure</Th>
          <Th>Now: {currentLabel}</Th>
          <Th>Candidate: {candidateLabel}</Th>
        </tr>
      </THead>
      <tbody>
        {rows.map(([name, text]) => (
          <Tr key={name}>
            <Td className="font-medium text-slate-700">{name}</Td>
            <Td className="tabular-nums">{current ? text(current) : "no suggestions"}</Td>
            <Td className="tabular-nums">{candidate ? text(candidate) : "no suggestions yet"}</Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

/** The figures a refused switch was decided on (κ and fail recall of both judges; what dropped is marked). */
export function RefusalFigures({ figures }: { figures: SwitchFigures }) {
  const rows: Array<["kappa" | "failRecall", string, (v: number | null) => string]> = [
    ["kappa", "Cohen's κ", kappaText],
    ["failRecall", "Fail recall", (v) => pct(v)],
  ];
  return (
    <Table caption="The figures the switch was refused on">
      <THead>
        <tr>
          <Th>Figure</Th>
          <Th>Now ({figures.current.n} items)</Th>
          <Th>Candidate ({figures.candidate.n} items)</Th>
          <Th>Change</Th>
        </tr>
      </THead>
      <tbody>
        {rows.map(([key, name, text]) => {
          const dropped = figures.drops.includes(key);
          return (
            <Tr key={key}>
              <Td className="font-medium text-slate-700">{name}</Td>
              <Td className="tabular-nums">{text(figures.current[key])}</Td>
              <Td className="tabular-nums">{text(figures.candidate[key])}</Td>
              <Td className={dropped ? "font-medium text-red-700" : "text-slate-600"}>
                {dropped ? "dropped by more than 0.05" : "within 0.05"}
              </Td>
            </Tr>
          );
        })}
      </tbody>
    </Table>
  );
}
