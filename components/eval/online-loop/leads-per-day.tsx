"use client";

import { Card } from "@/components/ui/card";
import { DailyBars } from "../charts";
import { when } from "../format";
import type { LeadCounts } from "../types";

/** Leads per day over the whole range, by status, as bars with their numbers (and the totals in words). */
export function LeadsPerDay({ counts }: { counts: LeadCounts }) {
  const summary = `${counts.total} lead${counts.total === 1 ? "" : "s"} from ${counts.from} to ${counts.to}: ${counts.byStatus.new} new, ${counts.byStatus.in_pool} in a pool, ${counts.byStatus.dismissed} dismissed`;
  return (
    <Card
      title="Leads per day"
      description={
        <>
          {summary}.
          {!counts.complete && counts.coveredFrom
            ? ` The range holds more online answers than one count looks at: counted from ${when(counts.coveredFrom)} on.`
            : ""}
        </>
      }
    >
      {counts.total === 0 ? (
        <p className="text-sm text-slate-500">No lead in this range.</p>
      ) : (
        <DailyBars
          data={counts.days}
          series={[
            { key: "new", name: "New", tone: "fail" },
            { key: "in_pool", name: "In a pool", tone: "human" },
            { key: "dismissed", name: "Dismissed", tone: "machine" },
          ]}
          label={`Leads per day: ${counts.days
            .filter((d) => d.total)
            .map((d) => `${d.day} ${d.total}`)
            .join(", ")}`}
        />
      )}
    </Card>
  );
}
