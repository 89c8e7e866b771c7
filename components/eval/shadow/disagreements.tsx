"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Pagination } from "@/components/ui/pagination";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { deniedReason, useCaps } from "../context";
import { ago, count, when } from "../format";
import { AddToPoolDialog } from "../pool-dialogs";
import { TraceButton } from "../trace-steps";
import { useCursorPages } from "../use-cursor-pages";

const PAGE = 20;

/**
 * The chats where the candidate's intent differs from the live one, newest first, by server-side cursor pages. Each
 * opens its online trace (the steps the live version took) and the candidate's own run, and can go to a regression
 * pool (the online loop's dialog, deduplicated by trace).
 */
export function Disagreements({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const { caps, role } = useCaps();
  const pages = useCursorPages();
  const list = useQuery({
    ...trpc.eval.shadow.disagreements.queryOptions({
      agentId,
      query: { limit: PAGE, ...(pages.cursor ? { cursor: pages.cursor } : {}) },
    }),
    placeholderData: keepPreviousData,
    refetchInterval: pages.page === 0 ? 10_000 : false, // the first page follows live traffic; later pages stay put
  });
  const [pooling, setPooling] = useState<{ traceId: string; message: string } | null>(null);
  const data = list.data;
  return (
    <Card
      title={`Disagreements${data ? ` (${count(data.total)})` : ""}`}
      description="Open a trace to see the steps the live version took, or the candidate's own run."
    >
      {list.error ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : !data ? (
        <LoadingRows rows={3} label="Loading the disagreements" />
      ) : data.items.length === 0 ? (
        <p className="text-sm text-slate-600">The candidate agrees with the live intent on every compared chat.</p>
      ) : (
        <>
          <Table caption="Chats where the candidate's intent differs">
            <THead>
              <tr>
                <Th>Message</Th>
                <Th className="w-32">Live</Th>
                <Th className="w-32">Candidate</Th>
                <Th className="w-32">When</Th>
                <Th className="w-48">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <tbody>
              {data.items.map((d) => (
                <Tr key={d.traceId}>
                  <Td className="max-w-md">
                    <div className="text-slate-900">{d.message}</div>
                    <div className="mt-0.5 flex flex-wrap gap-3">
                      <TraceButton traceId={d.traceId} label={`live trace …${d.traceId.slice(-6)}`} />
                      {d.candidateTraceId && <TraceButton traceId={d.candidateTraceId} label="candidate run" />}
                    </div>
                  </Td>
                  <Td>{d.live}</Td>
                  <Td className="font-medium text-red-700">{d.candidate}</Td>
                  <Td className="text-slate-600">
                    <span title={when(d.at)}>{ago(d.at)}</span>
                    {d.source === "replay" && <div className="text-xs text-slate-500">replayed</div>}
                  </Td>
                  <Td>
                    <Button
                      size="sm"
                      variant="secondary"
                      className="whitespace-nowrap"
                      disabled={!caps.manage}
                      title={caps.manage ? undefined : deniedReason(role, "manage")}
                      onClick={() => setPooling(d)}
                    >
                      Add to regression pool…
                    </Button>
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
          <Pagination
            label="Pages of disagreements"
            from={pages.page * PAGE + 1}
            to={pages.page * PAGE + data.items.length}
            total={data.total}
            hasPrev={pages.page > 0}
            hasNext={!!data.nextCursor}
            onPrev={pages.prev}
            onNext={() => pages.next(data.nextCursor)}
          />
        </>
      )}
      {pooling && (
        <AddToPoolDialog
          lead={{ traceId: pooling.traceId, message: pooling.message, conversation: [] }}
          agentId={agentId}
          onClose={() => setPooling(null)}
        />
      )}
    </Card>
  );
}
