"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Card, Stat } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useEvalUrl } from "../context";
import { Breadcrumbs } from "../breadcrumbs";
import { DailyBars } from "../charts";
import { count } from "../format";

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** Usage of the evaluation center by day: runs, answered questions, model calls and tokens (answering and judging apart). */
export function UsageView({ agentId, agentName }: { agentId: string; agentName: string }) {
  const trpc = useTRPC();
    const [to, setTo] = useState(() => iso(new Date()));
  const [from, setFrom] = useState(() => iso(new Date(Date.now() - 29 * 86_400_000)));
  const [scope, setScope] = useState<"agent" | "all">("agent");
  const usage = useQuery(trpc.eval.usage.queryOptions({ from, to, ...(scope === "agent" ? { agentId } : {}) }));
  const u = usage.data;
  const byDay = new Map<string, { day: string; runs: number; answered: number; tokens: number }>();
  for (const d of u?.days ?? []) {
    const x = byDay.get(d.day) ?? { day: d.day, runs: 0, answered: 0, tokens: 0 };
    x.runs += d.runs;
    x.answered += d.answeredItems;
    x.tokens += d.answering.tokens + d.judging.tokens;
    byDay.set(d.day, x);
  }
  // every day of the range, so quiet days show as zero instead of vanishing
  const series: Array<{ day: string; runs: number; answered: number; tokens: number }> = [];
  if (u) for (let d = Date.parse(`${u.from}T00:00:00Z`); d <= Date.parse(`${u.to}T00:00:00Z`); d += 86_400_000) {
    const day = iso(new Date(d));
    series.push(byDay.get(day) ?? { day, runs: 0, answered: 0, tokens: 0 });
  }
  const active = series.some((d) => d.runs || d.answered);
  return (
    <div className="space-y-5">
      <Breadcrumbs items={[{ label: "Runs", to: { tab: "runs" } }, { label: "Usage" }]} />
      <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Range">
        <label className="text-xs font-medium text-slate-600">
          From
          <input type="date" className={cn(inputClass, "mt-1")} value={from} max={to} onChange={(e) => e.target.value && setFrom(e.target.value)} />
        </label>
        <label className="text-xs font-medium text-slate-600">
          To
          <input type="date" className={cn(inputClass, "mt-1")} value={to} min={from} onChange={(e) => e.target.value && setTo(e.target.value)} />
        </label>
        <label className="text-xs font-medium text-slate-600">
          Agents
          <select className={cn(inputClass, "mt-1")} value={scope} onChange={(e) => setScope(e.target.value as "agent" | "all")}>
            <option value="agent">{agentName}</option>
            <option value="all">All agents</option>
          </select>
        </label>
      </div>
      {usage.error ? (
        <ErrorState error={usage.error} onRetry={() => usage.refetch()} />
      ) : !u ? (
        <LoadingRows rows={4} label="Loading usage" />
      ) : (
        <>
          <Card title={`${u.from} to ${u.to}`}>
            <dl className="grid gap-6 sm:grid-cols-2 lg:grid-cols-5">
              <Stat label="Runs" value={count(u.totals.runs)} />
              <Stat label="Answered questions" value={count(u.totals.answeredItems)} />
              <Stat label="Model calls (answering)" value={count(u.totals.answering.modelCalls)} />
              <Stat label="Tokens (answering)" value={count(u.totals.answering.tokens)} hint={`${count(u.totals.answering.promptTokens)} prompt · ${count(u.totals.answering.completionTokens)} completion`} />
              <Stat label="Tokens (judging)" value={count(u.totals.judging.tokens)} hint={`${count(u.totals.judging.modelCalls)} judge calls`} />
            </dl>
          </Card>
          {!active ? (
            <EmptyState title="Nothing in this range">Runs and answered questions appear here by day.</EmptyState>
          ) : (
            <>
              <Card title="By day">
                <DailyBars
                  label="Runs and answered questions by day"
                  data={series}
                  series={[
                    { key: "runs", name: "Runs", tone: "neutral" },
                    { key: "answered", name: "Answered questions", tone: "human" },
                  ]}
                />
              </Card>
              <Table caption="Usage by day and agent">
                <THead>
                  <tr>
                    <Th>Day</Th>
                    <Th>Agent</Th>
                    <Th className="text-right">Runs</Th>
                    <Th className="text-right">Answered</Th>
                    <Th className="text-right">Model calls</Th>
                    <Th className="text-right">Tokens</Th>
                    <Th className="text-right">Judge tokens</Th>
                  </tr>
                </THead>
                <tbody>
                  {[...(u.days ?? [])].reverse().map((d) => (
                    <Tr key={`${d.day}-${d.agentId}`}>
                      <Td className="tabular-nums">{d.day}</Td>
                      <Td>{d.agentName ?? d.agentId}</Td>
                      <Td className="text-right tabular-nums">{count(d.runs)}</Td>
                      <Td className="text-right tabular-nums">{count(d.answeredItems)}</Td>
                      <Td className="text-right tabular-nums">{count(d.answering.modelCalls)}</Td>
                      <Td className="text-right tabular-nums">{count(d.answering.tokens)}</Td>
                      <Td className="text-right tabular-nums">{count(d.judging.tokens)}</Td>
                    </Tr>
                  ))}
                </tbody>
              </Table>
            </>
          )}
        </>
      )}
    </div>
  );
}
