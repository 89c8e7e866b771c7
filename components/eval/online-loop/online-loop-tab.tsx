"use client";

import { LoopBoard } from "./board";
import { LeadsSection } from "./leads";
import { useLeads } from "./use-leads";

/**
 * The online feedback loop (the default tab of /eval): the board (a lead count leading in, then each pool sample on its
 * way through the loop: in pool, confirmed, expectations, frozen, in a run, Bad Case, verified) over the leads from
 * online traffic (low feedback scores, guardrail signals) that a person adds to a regression pool or dismisses.
 */
export function OnlineLoopTab({ agentId, agentName }: { agentId: string; agentName: string }) {
  const leads = useLeads(agentId);
  return (
    <div className="space-y-6">
      <LoopBoard
        agentId={agentId}
        newLeads={leads.counts ? leads.counts.byStatus.new : null}
        onReviewLeads={() => {
          leads.setFilter({ status: "new" });
          document.getElementById("leads")?.scrollIntoView({ behavior: "smooth", block: "start" });
        }}
      />
      <LeadsSection agentId={agentId} agentName={agentName} state={leads} />
    </div>
  );
}
