"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { Combobox } from "@/components/ui/combobox";
import { ErrorState, Skeleton } from "@/components/ui/feedback";
import { TabPanel, Tabs } from "@/components/ui/tabs";
import { EvalProvider, useEvalUrl, type EvalCaps } from "./context";
import { errorInfo } from "./types";
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

const LISTED = 50;

function Shell() {
  const trpc = useTRPC();
  const [url, go] = useEvalUrl();
  const rawAgent = useSearchParams().get("agent");
  const [query, setQuery] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  // The first agents in the server's evaluation order: agents that have evaluation sets first (on a fresh install: the
  // seeded sample agent), newest set first, then by name. The selector searches every agent on the server.
  const agents = useQuery(trpc.builder.agents.list.queryOptions({ limit: LISTED, order: "evaluation" }));
  const search = useQuery({
    ...trpc.builder.agents.list.queryOptions({ q: query, limit: 20 }),
    enabled: !!query,
    placeholderData: keepPreviousData,
  });
  const ordered = useMemo(() => agents.data?.items ?? [], [agents.data]);

  // The URL's agent, wherever it is in the list: looked up on the server when it is not among the first listed.
  const listed = url.agent ? ordered.find((a) => a.id === url.agent) : undefined;
  const lookup = useQuery({
    ...trpc.builder.agents.get.queryOptions({ id: url.agent ?? "" }),
    enabled: !!url.agent && agents.isSuccess && !listed,
    retry: false,
  });
  const missing = !!url.agent && !listed && errorInfo(lookup.error).code === "NOT_FOUND";
  const agent = url.agent
    ? (listed ?? (lookup.data ? { id: lookup.data.id, name: lookup.data.name } : undefined))
    : undefined;
  const fallback = ordered[0];

  // No agent in the URL, or one that does not exist: show the first agent, and say so when the link named another.
  useEffect(() => {
    if (!fallback) return;
    if (missing) {
      setNotice(`No agent “${url.agent}” exists (it may have been deleted): showing ${fallback.name} instead.`);
      go({ tab: url.tab, agent: fallback.id }, { replace: true });
    } else if (!url.agent) {
      if (rawAgent) setNotice(`“${rawAgent.slice(0, 80)}” is not an agent id: showing ${fallback.name} instead.`);
      go({ agent: fallback.id }, { replace: true });
    }
  }, [missing, url.agent, url.tab, rawAgent, fallback, go]);

  // while the server searches, the agents already listed that match stand in (so the list never empties under the cursor)
  const choices = query
    ? (search.data?.items ?? ordered.filter((a) => a.name.toLowerCase().includes(query.toLowerCase())).slice(0, 20))
    : ordered;
  const more = query ? !!search.data?.nextCursor : !!agents.data?.nextCursor;
  const pick = (id: string) => {
    setNotice(null);
    go({ tab: url.tab, agent: id });
  };

  let body: ReactNode;
  if (agents.error) body = <ErrorState error={agents.error} onRetry={() => agents.refetch()} />;
  else if (agents.isLoading) body = <Skeleton className="h-40 w-full" />;
  else if (!ordered.length) body = <NoAgents />;
  else if (agent) body = <TabContent tab={url.tab} agentId={agent.id} agentName={agent.name} />;
  else if (lookup.error && !missing)
    body = (
      <div className="space-y-3">
        <ErrorState error={lookup.error} onRetry={() => lookup.refetch()} title="The agent could not be loaded" />
        {fallback && (
          <Button variant="secondary" onClick={() => pick(fallback.id)}>
            Show {fallback.name} instead
          </Button>
        )}
      </div>
    );
  else body = <Skeleton className="h-40 w-full" />;

  return (
    <div className="flex min-h-full flex-col">
      <header className="border-b border-slate-200 bg-white px-4 pt-6 sm:px-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-xl font-semibold tracking-tight">Evaluation</h1>
            <p className="mt-1 max-w-2xl text-sm text-slate-500">
              Machines answer and suggest at volume; people give the final verdict. Only human-confirmed passes count
              for a release gate.
            </p>
          </div>
          <div className="flex items-center gap-2">
            <label htmlFor="eval-agent" className="text-sm font-medium text-slate-600">
              Agent
            </label>
            {agents.isLoading ? (
              <Skeleton className="h-9 w-64" />
            ) : (
              <Combobox
                id="eval-agent"
                className="w-64"
                value={agent?.id}
                selectedLabel={agent?.name ?? (ordered.length ? "" : "No agents yet")}
                placeholder={ordered.length ? "Choose an agent" : "No agents yet"}
                disabled={!ordered.length}
                options={choices.map((a) => ({ value: a.id, label: a.name }))}
                onChange={pick}
                onQuery={setQuery}
                loading={!!query && search.isFetching && !search.data && !choices.length}
                empty={query ? `No agent named like “${query}”` : "No agents yet"}
                footer={more ? (query ? "More match: type more of the name" : "Type to search every agent") : undefined}
              />
            )}
          </div>
        </div>
        {notice && (
          <div
            role="status"
            className="mt-3 flex items-start justify-between gap-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          >
            <p>{notice}</p>
            <Button size="sm" variant="ghost" onClick={() => setNotice(null)}>
              Dismiss
            </Button>
          </div>
        )}
        <Tabs
          className="-mb-px mt-4"
          label="Evaluation center"
          idPrefix="eval-tab"
          tabs={EVAL_TABS.map((t) => ({ id: t.id, label: t.label }))}
          selected={url.tab}
          onSelect={(id) => go({ tab: id as EvalTab, agent: url.agent })}
        />
      </header>
      <TabPanel id={url.tab} idPrefix="eval-tab" className="flex-1 px-4 py-6 sm:px-8">
        {body}
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
        Build one on the{" "}
        <a className="font-medium text-brand-700 underline" href="/builder">
          Agents
        </a>{" "}
        page; its evaluation sets, runs and verdicts appear here.
      </p>
    </div>
  );
}
