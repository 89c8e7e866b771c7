"use client";

import { CartesianGrid, ErrorBar, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { COLORS, pctLabel, tick, tooltipText } from "./charts";

/** One line of the trend: a set version at a tier; each point a run with its rate and 95 % interval. */
export type TrendLine = {
  key: string;
  name: string;
  points: Array<{ shortId: string; rate: number | null; interval: { low: number; high: number } | null }>;
};
const LINE_COLORS = [COLORS.human, COLORS.good, COLORS.warn, COLORS.fail, COLORS.neutral, "#7c3aed"];

/**
 * The human-confirmed pass rate of a set's runs over time (charts.tsx's colours and axes): one line per set version and
 * tier, runs in order of creation on the x axis, each point's 95 % Wilson interval as an error bar. A run without a
 * verdict has no point. Like every chart here it has an accessible name, and the page gives the same numbers in a table.
 */
export function TrendChart({ lines, order, label }: { lines: TrendLine[]; order: string[]; label: string }) {
  const rows = order.map((shortId) => {
    const row: Record<string, unknown> = { run: shortId };
    for (const l of lines) {
      const p = l.points.find((x) => x.shortId === shortId);
      if (!p || p.rate === null) continue;
      row[l.key] = p.rate;
      row[`${l.key}Error`] = p.interval ? [p.rate - p.interval.low, p.interval.high - p.rate] : undefined;
    }
    return row;
  });
  return (
    <div role="img" aria-label={label} className="h-64">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} margin={{ top: 12, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="run" tick={tick} padding={{ left: 32, right: 32 }} />
          <YAxis domain={[0, 1]} tickFormatter={pctLabel} tick={tick} width={44} />
          <Tooltip {...tooltipText} formatter={(v) => (Array.isArray(v) ? "" : pctLabel(v))} />
          {lines.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
          {lines.map((l, i) => (
            <Line
              key={l.key}
              dataKey={l.key}
              name={l.name}
              stroke={LINE_COLORS[i % LINE_COLORS.length]}
              strokeWidth={2}
              dot={{ r: 4 }}
              connectNulls
              isAnimationActive={false}
            >
              <ErrorBar dataKey={`${l.key}Error`} direction="y" width={6} strokeWidth={1.5} stroke="#334155" />
            </Line>
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
