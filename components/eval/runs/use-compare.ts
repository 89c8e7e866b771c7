"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import type { BadgeTone } from "@/components/ui/badge";
import { useEvalUrl } from "../context";
import { words } from "../format";
import { useVocabulary } from "../hooks/use-vocabulary";
import type { EvalCompare, EvalCompareMany } from "../types";
import { COMPARE_OUTCOMES, compareQuery, type CompareOutcome, manyQuery, manyRuns } from "../url-state";
import type { OutcomeChoice } from "./compare-questions";

/** Questions per page: two runs side by side, and the question x run grid. */
export const COMPARE_PAGE = 50;
export const GRID_PAGE = 100;

const OUTCOME_TONES: Record<CompareOutcome, BadgeTone> = {
  regressed: "danger",
  fixed: "success",
  both_fail: "warning",
  both_pass: "neutral",
  incomplete: "info",
  only_a: "neutral",
  only_b: "neutral",
};

/** The two-run comparison of the URL's runs a and b (paged and filtered by the server). */
export function useCompareTwo() {
  const trpc = useTRPC();
  const [url] = useEvalUrl();
  const q = useQuery({
    ...trpc.eval.runs.compare.queryOptions(compareQuery(url, COMPARE_PAGE)),
    enabled: !!url.a && !!url.b,
    placeholderData: keepPreviousData,
  });
  const data = q.data && "runA" in q.data ? (q.data as EvalCompare) : undefined;
  return { data, error: q.error, refetch: q.refetch };
}

/** The many-run comparison of the URL's runs (2 to 8), with the grid's filters and page. */
export function useCompareMany() {
  const trpc = useTRPC();
  const [url] = useEvalUrl();
  const q = useQuery({
    ...trpc.eval.runs.compare.queryOptions(manyQuery(url, GRID_PAGE)),
    enabled: manyRuns(url).length >= 2,
    placeholderData: keepPreviousData,
  });
  const data = q.data && "runs" in q.data ? (q.data as EvalCompareMany) : undefined;
  return { data, error: q.error, refetch: q.refetch, fetching: q.isFetching };
}

/** The outcomes in the order the page offers them, named as the server's vocabulary names them (eval.meta). */
export function useOutcomeChoices(): OutcomeChoice[] {
  const vocabulary = useVocabulary();
  return COMPARE_OUTCOMES.map((id) => ({
    id,
    label: vocabulary.data?.compareOutcomes.find((o) => o.id === id)?.label ?? words(id),
    tone: OUTCOME_TONES[id],
  }));
}
