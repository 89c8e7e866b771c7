"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  LabelList,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

/**
 * The evaluation pages' charts (recharts). Each one has a title for screen readers (role img + aria-label) and a
 * table of the same numbers beside or under it in the page, so nothing is only in a picture. Numbers are printed on
 * the bars.
 */
export const COLORS = {
  machine: "#94a3b8",
  human: "#2a56d9",
  fail: "#dc2626",
  warn: "#d97706",
  neutral: "#64748b",
  good: "#059669",
};
export const pctLabel = (v: unknown) => (typeof v === "number" ? `${Math.round(v * 100)}%` : "");
export const tick = { fontSize: 12, fill: "#475569" };
/**
 * A tooltip's text in the page's text colours: recharts colours each line like its series (a light fill on the white
 * tooltip fails axe's colour contrast once a pointer rests on a chart, as in a browser test of the report).
 */
export const tooltipText = { itemStyle: { color: "#0f172a" }, labelStyle: { color: "#334155" } } as const;
const compactNumber = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
/**
 * A rate of 0 is a result, not a missing bar: recharts drops zero-width bars and their labels, so a 0 is drawn 2 px
 * wide and keeps its "0%"; a missing rate (null: nothing to count) stays without a bar.
 */
const zeroStillShows = (v: unknown) => (v === 0 ? 2 : 0);

type Range = { low: number; high: number } | null | undefined;
/**
 * A 95 % interval as recharts' error-bar offsets from the bar's value ([below, above]); none when there is no
 * interval or the bar's value lies outside it (a rate of all questions with unjudged ones left: the interval is of the
 * judged, the table beside the chart gives it).
 */
function offsets(value: number | null, interval: Range): [number, number] | null {
  if (value === null || !interval || value < interval.low || value > interval.high) return null;
  return [value - interval.low, interval.high - value];
}

/** Machine vs human-confirmed pass rate per group (never mixed: two bars per group), each with its 95 % interval. */
export function PassRateBars({
  data,
  label,
}: {
  data: Array<{
    group: string;
    machine: number | null;
    human: number | null;
    machineRange?: Range;
    humanRange?: Range;
  }>;
  label: string;
}) {
  const height = Math.max(120, data.length * 44 + 40);
  const rows = data.map((d) => ({
    ...d,
    machineError: offsets(d.machine, d.machineRange),
    humanError: offsets(d.human, d.humanRange),
  }));
  return (
    <div role="img" aria-label={label} style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 48, bottom: 4, left: 8 }} barGap={2}>
          <CartesianGrid horizontal={false} stroke="#e2e8f0" />
          <XAxis type="number" domain={[0, 1]} tickFormatter={pctLabel} tick={tick} />
          <YAxis type="category" dataKey="group" width={140} tick={tick} />
          <Tooltip {...tooltipText} formatter={(v) => pctLabel(v)} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar
            dataKey="machine"
            name="Machine suggestion"
            fill={COLORS.machine}
            isAnimationActive={false}
            minPointSize={zeroStillShows}
          >
            <ErrorBar dataKey="machineError" direction="x" width={6} strokeWidth={1.5} stroke="#334155" />
            <LabelList
              dataKey="machine"
              position="right"
              formatter={pctLabel}
              style={{ fontSize: 11, fill: "#334155" }}
            />
          </Bar>
          <Bar
            dataKey="human"
            name="Human-confirmed"
            fill={COLORS.human}
            isAnimationActive={false}
            minPointSize={zeroStillShows}
          >
            <ErrorBar dataKey="humanError" direction="x" width={6} strokeWidth={1.5} stroke="#0f172a" />
            <LabelList
              dataKey="human"
              position="right"
              formatter={pctLabel}
              style={{ fontSize: 11, fill: "#1e3a8a" }}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Counts per category, largest first (fails by attribution, items by guardrail flag). */
export function CountBars({
  data,
  label,
  tone = "neutral",
  valueName,
}: {
  data: Array<{ name: string; value: number }>;
  label: string;
  tone?: keyof typeof COLORS;
  valueName: string;
}) {
  const height = Math.max(100, data.length * 34 + 30);
  return (
    <div role="img" aria-label={label} style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 40, bottom: 4, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="#e2e8f0" />
          <XAxis type="number" allowDecimals={false} tick={tick} />
          <YAxis type="category" dataKey="name" width={140} tick={tick} />
          <Tooltip {...tooltipText} />
          <Bar dataKey="value" name={valueName} fill={COLORS[tone]} isAnimationActive={false}>
            <LabelList dataKey="value" position="right" style={{ fontSize: 11, fill: "#334155" }} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Values per day, one or more series side by side (usage, leads, agreement); `compact` writes 12.3K for large counts (tokens). */
export function DailyBars<K extends string>({
  data,
  series,
  label,
  percent = false,
  compact = false,
}: {
  data: Array<{ day: string } & Partial<Record<K, number | null>>>;
  series: Array<{ key: K; name: string; tone: keyof typeof COLORS }>;
  label: string;
  percent?: boolean;
  compact?: boolean;
}) {
  const number = (v: number) => (compact ? compactNumber.format(v) : v.toLocaleString("en-US"));
  return (
    <div role="img" aria-label={label} className="h-56">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 16, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="day" tick={tick} tickFormatter={(d: string) => d.slice(5)} />
          <YAxis
            tick={tick}
            allowDecimals={false}
            tickFormatter={percent ? pctLabel : compact ? (v: number) => compactNumber.format(v) : undefined}
            domain={percent ? [0, 1] : undefined}
            width={compact ? 48 : 40}
          />
          <Tooltip
            {...tooltipText}
            formatter={(v) => (percent ? pctLabel(v) : typeof v === "number" ? v.toLocaleString("en-US") : String(v))}
          />
          {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
          {series.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.name}
              fill={COLORS[s.tone]}
              isAnimationActive={false}
              maxBarSize={28}
            >
              <LabelList
                dataKey={s.key}
                position="top"
                formatter={(v: unknown) =>
                  typeof v === "number" && v !== 0 ? (percent ? pctLabel(v) : number(v)) : ""
                }
                style={{ fontSize: 10, fill: "#334155" }}
              />
            </Bar>
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
