"use client";

import { AlertBanner } from "./alert-banner";
import { AlertRulesCard } from "./alert-rules-card";
import { LoopBoard } from "./board";
import { JudgingCard } from "./judging-card";
import { LeadsSection } from "./leads";
import { useLeads } from "./use-leads";

/**
 * The online feedback loop (the default tab of /eval): open alerts first (until acknowledged), the board (a lead count
 * leading in, then each pool sample on its way through the loop: in pool, confirmed, expectations, frozen, in a run,
 * Bad Case, verified), what watches the online answers (sampled online judging, alert rules), and the leads from online
 * traffic (low feedback scores, guardrail signals, judged fails and unknowns) that a person adds to a regression pool
 * or dismisses.
 */
export function OnlineLoopTab({ agentId, agentName }: { agentId: string; agentName: string }) {
  const leads = useLeads(agentId);
  const toLeads = () => document.getElementById("leads")?.scrollIntoView({ behavior: "smooth", block: "start" });
  return (
    <div className="space-y-6">
      <AlertBanner
        agentId={agentId}
        onShowLeads={(signal) => {
          leads.setFilter({ signal, status: undefined });
          toLeads();
        }}
      />
      <LoopBoard
        agentId={agentId}
        newLeads={leads.counts ? leads.counts.byStatus.new : null}
        onReviewLeads={() => {
          leads.setFilter({ status: "new" });
          toLeads();
        }}
      />
      <section aria-labelledby="watching-title" className="space-y-3">
        <h2 id="watching-title" className="text-lg font-semibold text-slate-900">
          Watching online answers
        </h2>
        <div className="grid gap-4 xl:grid-cols-2">
          <JudgingCard agentId={agentId} />
          <AlertRulesCard agentId={agentId} />
        </div>
      </section>
      <LeadsSection agentId={agentId} agentName={agentName} state={leads} />
    </div>
  );
}
