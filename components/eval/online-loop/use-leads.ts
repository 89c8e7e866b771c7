"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { useVocabulary } from "../hooks/use-vocabulary";
import { useEvalUrl } from "../context";
import type { LeadCounts } from "../types";
import { usageRange } from "../url-state";
import { useCursorPages } from "../use-cursor-pages";

export const LEADS_PAGE = 20;
/**
 * The leads of the online-loop tab, from the URL's filters (status, signal, score, from, to): a page of leads (cursor
 * pages) and the counts per day by status over the whole range (the chart and the board's lead count; every status).
 * Both read one range of days, the chart's: the URL's `from`/`to`, else the server's default (the last 30 days), which
 * the From/To inputs show (`range`).
 * The statuses and signals, with their names and meanings, are the server's vocabulary (`eval.meta`); a status in
 * the URL counts once the vocabulary knows it (the URL's `status` is shared with other tabs' filters).
 */
export function useLeads(agentId: string) {
  const trpc = useTRPC();
  const [url, go] = useEvalUrl();
  const pages = useCursorPages();
  const vocabulary = useVocabulary();
  const statuses = vocabulary.data?.leadStatuses ?? [];
  const signals = vocabulary.data?.leadSignals ?? [];
  const status = statuses.find((s) => s.id === url.status)?.id;
  const maxScore = url.score ?? 2;
  const { from, to } = usageRange(url);
  const filters = { agentId, maxScore, ...(url.signal ? { signal: url.signal } : {}), from, to };
  const leads = useQuery({
    ...trpc.eval.online.leads.queryOptions({
      ...filters,
      ...(status ? { status } : {}),
      limit: LEADS_PAGE,
      ...(pages.cursor ? { cursor: pages.cursor } : {}),
    }),
    placeholderData: keepPreviousData,
    enabled: !url.status || !!vocabulary.data, // a status filter waits for the vocabulary that recognises it
  });
  // every status, by day: the chart stacks them and the board's Leads column shows the new ones, whatever the list shows
  const counts = useQuery({ ...trpc.eval.online.leadCounts.queryOptions(filters), placeholderData: keepPreviousData });
  const setFilter = (patch: Parameters<typeof go>[0]) => {
    pages.reset();
    go(patch, { replace: true });
  };
  return {
    url,
    status,
    statuses,
    signals,
    maxScore,
    leads,
    counts: counts.data as LeadCounts | undefined,
    /** the days the chart and the list read (the server's answer once it is there) */
    range: { from: counts.data?.from ?? from, to: counts.data?.to ?? to },
    countsError: counts.error,
    pages,
    setFilter,
    filtered: !!(url.status || url.signal || url.score || url.from || url.to),
  };
}
