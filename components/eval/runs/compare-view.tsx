"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { useEvalUrl } from "../context";
import { Breadcrumbs } from "../breadcrumbs";
import { words } from "../format";
import { manyRuns } from "../url-state";
import { CompareManyView } from "./compare-many-view";
import { CompareTwoView } from "./compare-two-view";

/**
 * The comparison page: two runs (`a`, `b`: outcomes, the paired table, both answers) or 2 to 8 runs of one set version
 * (`runs`: the question x run grid, chosen in the runs list). Everything is in the URL.
 */
export function CompareView({ agentId }: { agentId: string }) {
  const [url] = useEvalUrl();
  const many = manyRuns(url).length >= 2;
  return (
    <div className="space-y-5">
      <Breadcrumbs items={[{ label: "Runs", to: { tab: "runs" } }, { label: "Compare" }]} />
      {many ? (
        <CompareManyView />
      ) : (
        <>
          <RunPickers agentId={agentId} />
          <CompareTwoView />
        </>
      )}
    </div>
  );
}

/** Run A and run B: the agent's answered runs (the URL's run is kept even when it is not among them). */
function RunPickers({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const [url, go] = useEvalUrl();
  const runs = useQuery(trpc.eval.runs.list.queryOptions({ agentId, limit: 200 }));
  const done = (runs.data?.items ?? []).filter((r) => r.status === "awaiting_review" || r.status === "completed");
  const picker = (side: "a" | "b") => (
    <label className="text-xs font-medium text-slate-600">
      Run {side.toUpperCase()} {side === "a" ? "(before)" : "(after)"}
      <select
        className={cn(inputClass, "mt-1 w-72 max-w-full")}
        value={url[side] ?? ""}
        onChange={(e) =>
          go({ page: undefined, open: undefined, [side]: e.target.value || undefined }, { replace: true })
        }
      >
        <option value="">Choose a run…</option>
        {url[side] && !done.some((r) => r.shortId === url[side] || r.id === url[side]) && (
          <option value={url[side]}>{url[side]}</option>
        )}
        {done.map((r) => (
          <option key={r.id} value={r.shortId}>
            {r.shortId} · {r.setName} v{r.setVersion} · agent v{r.workflowVersion} · {words(r.tier)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="flex flex-wrap items-end gap-4" role="group" aria-label="Runs to compare">
      {picker("a")}
      {picker("b")}
    </div>
  );
}
