"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { Badge } from "@/components/ui/badge";
import { Spinner } from "@/components/ui/feedback";
import { VerdictBadge } from "../badges";
import { words } from "../format";
import { PayloadView } from "../payload-view";

/** One run's answer to a question, with its verdict (loaded when the question is opened). */
export function AnswerSide({ label, runId, itemId }: { label: string; runId: string; itemId?: string }) {
  const trpc = useTRPC();
  const item = useQuery({
    ...trpc.eval.items.get.queryOptions({ id: runId, itemId: itemId ?? "" }),
    enabled: !!itemId,
  });
  return (
    <section aria-label={label} className="rounded-lg border border-slate-200 bg-white p-3">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</h4>
      {!itemId ? (
        <p className="mt-2 text-sm text-slate-500">Not in this run.</p>
      ) : !item.data ? (
        <div className="mt-2">
          <Spinner label="Loading the answer" />
        </div>
      ) : (
        <div className="mt-2 space-y-2 text-sm">
          <div className="flex flex-wrap gap-2">
            <VerdictBadge verdict={item.data.verdict?.verdict} source={item.data.verdict?.source} />
            {item.data.verdict?.attribution && <Badge>{words(item.data.verdict.attribution)}</Badge>}
          </div>
          {item.data.verdict?.basis && <p className="text-xs text-slate-600">Basis: {item.data.verdict.basis}</p>}
          <p className="whitespace-pre-wrap text-slate-800">
            {item.data.answer || (
              <span className="text-slate-500">(no answer){item.data.error ? `: ${item.data.error}` : ""}</span>
            )}
          </p>
          {item.data.payload && <PayloadView payload={item.data.payload} compact />}
        </div>
      )}
    </section>
  );
}
