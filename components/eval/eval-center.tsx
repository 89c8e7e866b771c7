"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { useTRPC } from "@/lib/trpc";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { ErrorState, Skeleton } from "@/components/ui/feedback";
import { TabPanel, Tabs } from "@/components/ui/tabs";
import { EvalProvider, useEvalUrl, type EvalCaps } from "./context";
import { EVAL_TABS, type EvalTab } from "./url-state";
import { SetsTab } from "./sets/sets-tab";
import { RunsTab } from "./runs/runs-tab";
import { AnnotationTab } from "./annotation/annotation-tab";
import { BadCasesTab } from "./bad-cases/bad-cases-tab";
import { OnlineLoopTab } from "./online-loop/online-loop-tab";
import { ShadowTab } from "./shadow/shadow-tab";

/**
 * /eval: the evaluation center's shell. An agent selector scopes every tab; the tabs are ARIA tabs driven by the
 * URL (`?tab=`), and each tab keeps its own view and filters in the URL too, so every view can be shared.
 */
export function EvalCenter({ caps, role }: { caps: EvalCaps; role: string }) {
  return (
    <EvalProvider caps={caps} role={role}>
      <Shell />
    </EvalProvider>
  );
}

function Shell() {
  const trpc = useTRPC();
  const [url, go] = useEvalUrl();
  const agents = useQuery(trpc.builder.agents.list.queryOptions({ limit: 200 }));
  const sets = useQuery(trpc.eval.sets.list.queryOptions({ limit: 200 }));

  // Agents that have evaluation sets come first (on a fresh install: the seeded sample agent), newest set first.
  const ordered = useMemo(() => {
    const list = agents.data?.items ?? [];
    const rank = new Map<string, number>();
    (sets.data?.items ?? []).forEach((s, i) => {
      if (!rank.has(s.agentId)) rank.set(s.agentId, i);
    });
    return [...list].sort((a, b) => (rank.get(a.id) ?? 1e9) - (rank.get(b.id) ?? 1e9) || a.name.localeCompare(b.name));
  }, [agents.data, sets.data]);

  const agentId = url.agent ?? ordered[0]?.id;
  const agent = ordered.find((a) => a.id === agentId);
  useEffect(() => {
    if (!url.agent && ordered[0] && sets.data) go({ agent: ordered[0].id }, { replace: true });
  }, [url.agent, ordered, sets.data, go]);

  return (
    <div className="flex min-h-full flex-col">
      <header className="border-b border-slate-200 bg-white px-8 pt-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-xl font-semibold tracking-tight">Evaluation</h1>
            <p className="mt-1 max-w-2xl text-sm text-slate-500">
              Machines answer and suggest at volume; people give the final verdict. Only human-confirmed passes count for a release gate.
            </p>
          </div>
          <div className="flex items-center gap-2">
            <label htmlFor="eval-agent" className="text-sm font-medium text-slate-600">
              Agent
            </label>
            {agents.isLoading ? (
              <Skeleton className="h-9 w-56" />
            ) : (
              <select id="eval-agent" className={cn(inputClass, "w-64")} value={agentId ?? ""} onChange={(e) => go({ tab: url.tab, agent: e.target.value })} disabled={!ordered.length}>
                {!ordered.length && <option value="">No agents yet</option>}
                {ordered.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            )}
          </div>
        </div>
        <Tabs
          className="-mb-px mt-4"
          label="Evaluation center"
          idPrefix="eval-tab"
          tabs={EVAL_TABS.map((t) => ({ id: t.id, label: t.label }))}
          selected={url.tab}
          onSelect={(id) => go({ tab: id as EvalTab, agent: url.agent })}
        />
      </header>
      <TabPanel id={url.tab} idPrefix="eval-tab" className="flex-1 px-8 py-6">
        {agents.error ? (
          <ErrorState error={agents.error} onRetry={() => agents.refetch()} />
        ) : agentId || agents.isLoading ? (
          agentId && agent ? <TabContent tab={url.tab} agentId={agentId} agentName={agent.name} /> : <Skeleton className="h-40 w-full" />
        ) : (
          <NoAgents />
        )}
      </TabPanel>
    </div>
  );
}

function TabContent({ tab, agentId, agentName }: { tab: EvalTab; agentId: string; agentName: string }) {
  switch (tab) {
    case "online-loop":
      return <OnlineLoopTab agentId={agentId} agentName={agentName} />;
    case "sets":
      return <SetsTab agentId={agentId} agentName={agentName} />;
    case "runs":
      return <RunsTab agentId={agentId} agentName={agentName} />;
    case "annotation":
      return <AnnotationTab agentId={agentId} />;
    case "bad-cases":
      return <BadCasesTab agentId={agentId} />;
    case "intent-shadow":
      return <ShadowTab agentId={agentId} agentName={agentName} />;
  }
}

function NoAgents() {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white/60 px-6 py-12 text-center">
      <h2 className="text-sm font-semibold">No agent to evaluate yet</h2>
      <p className="mt-1 text-sm text-slate-600">
        Build one on the <a className="font-medium text-brand-700 underline" href="/builder">Agents</a> page; its evaluation sets, runs and verdicts appear here.
      </p>
    </div>
  );
}
