"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { useEvalUrl } from "../context";
import { words } from "../format";
import { useMutationToast } from "../hooks/use-mutation-toast";
import { useVocabulary } from "../hooks/use-vocabulary";
import { useCreateAndStart } from "../runs/use-create-and-start";
import type { BadCase } from "../types";
import { useCursorPages } from "../use-cursor-pages";

/** The Bad Case hooks: one per concern of the Bad Case pages (and the annotation item's "Make Bad Case"). */

export const BAD_CASE_PAGE = 50;

/** A status as people read it ("won't fix", "in progress"). */
export const statusWords = (s: string) => (s === "wont_fix" ? "won't fix" : words(s));

/** The statuses and attributions a Bad Case can have: the server's vocabulary. */
export function useBadCaseStatuses() {
  const meta = useVocabulary();
  return { statuses: meta.data?.badCaseStatuses ?? [], attributions: Object.keys(meta.data?.attributions ?? {}) };
}

/**
 * The Bad Case list of an agent from the URL's filters (status, attribution, scenario, run, set), a page at a time;
 * the agent's sets for the Set filter. A filter change starts again at the first page.
 */
export function useBadCaseList(agentId: string) {
  const trpc = useTRPC();
  const [url, go] = useEvalUrl();
  const { statuses, attributions } = useBadCaseStatuses();
  const pages = useCursorPages();
  const status = statuses.find((s) => s === url.status);
  const attribution = attributions.find((a) => a === url.attribution);
  const sets = useQuery(trpc.eval.sets.list.queryOptions({ agentId, limit: 200 }));
  const list = useQuery({
    ...trpc.eval.badCases.list.queryOptions({
      agentId,
      limit: BAD_CASE_PAGE,
      ...(status ? { status } : {}),
      ...(attribution ? { attribution: attribution as never } : {}),
      ...(url.cls ? { classification: url.cls } : {}),
      ...(url.run ? { runId: url.run } : {}),
      ...(url.set ? { setId: url.set } : {}),
      ...(pages.cursor ? { cursor: pages.cursor } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const setFilter = (patch: Parameters<typeof go>[0]) => {
    pages.reset();
    go(patch, { replace: true });
  };
  return {
    url,
    statuses,
    attributions,
    sets,
    list,
    pages,
    setFilter,
    filtered: !!(url.status || url.attribution || url.cls || url.run || url.set),
  };
}

/** A Bad Case with its failed item; read afresh whenever shown (it sums up work done in other tabs). */
export function useBadCase(id: string) {
  const trpc = useTRPC();
  const bc = useQuery({ ...trpc.eval.badCases.get.queryOptions({ id }), refetchOnMount: "always" });
  const item = useQuery({
    ...trpc.eval.items.get.queryOptions({ id: bc.data?.runId ?? "", itemId: bc.data?.itemId ?? "" }),
    enabled: !!bc.data,
  });
  return { bc, item };
}

/**
 * Changing a Bad Case (status, notes, verified): `success` names what the toast says, `failure` the error toast's
 * title; `all` reads every eval answer again (verifying changes the case's run too), else only the Bad Cases.
 */
export function useUpdateBadCase({
  success,
  failure,
  all = false,
  onDone,
}: {
  success: (b: BadCase) => string;
  failure: string;
  all?: boolean;
  onDone?: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { ok, fail, refresh } = useMutationToast();
  return useMutation(
    trpc.eval.badCases.update.mutationOptions({
      onSuccess: async (b) => {
        ok(success(b));
        onDone?.();
        await (all ? refresh() : qc.invalidateQueries({ queryKey: trpc.eval.badCases.pathKey() }));
      },
      onError: fail(failure),
    }),
  );
}

/** The runs offered by "a Bad Case for every fail": those with failed questions without one, searchable, paged. */
export function useRunsWithUnfiledFails(agentId: string, q: string | undefined, enabled: boolean) {
  const trpc = useTRPC();
  return useInfiniteQuery({
    ...trpc.eval.runs.list.infiniteQueryOptions(
      { agentId, unfiledFails: true, limit: 20, ...(q ? { q } : {}) },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    enabled,
  });
}

/** "A Bad Case for every fail" of one run. */
export function useBadCasesForRun(onDone: () => void) {
  const trpc = useTRPC();
  const { ok, fail, refresh } = useMutationToast();
  return useMutation(
    trpc.eval.runs.badCases.mutationOptions({
      onSuccess: async (r) => {
        ok(
          r.created
            ? `${r.created} Bad Case${r.created === 1 ? "" : "s"} created`
            : "Every fail already has a Bad Case",
        );
        await refresh();
        onDone();
      },
      onError: fail("No Bad Case created"),
    }),
  );
}

/** "Make Bad Case" on one failed item (the annotation view). */
export function useMakeBadCase() {
  const trpc = useTRPC();
  const { ok, fail, refresh } = useMutationToast();
  return useMutation(
    trpc.eval.items.badCase.mutationOptions({
      onSuccess: async (r) => {
        ok(r.created ? "Bad Case created" : "This item already has a Bad Case", r.badCase.title);
        await refresh();
      },
      onError: fail("No Bad Case"),
    }),
  );
}

/**
 * "Re-run the same batch": the case's run again, created AND started (the shared create-and-start hook, like the
 * board's run button); the run's page is next, started or not (the hook says why not).
 */
export function useRerunBatch() {
  const { ok, toast, refresh } = useMutationToast();
  const [, go] = useEvalUrl();
  const runs = useCreateAndStart();
  const rerun = async (runId: string) => {
    const out = await runs.rerunAndStart(runId);
    if (!out.ok && out.step === "create") {
      toast({ tone: "error", title: "No re-run", description: out.message });
      return;
    }
    if (out.ok)
      ok(`Re-run ${out.run.shortId} started`, "Judge the question when it is answered, then verify the Bad Case here.");
    await refresh();
    go({ tab: "runs", run: out.run.shortId });
  };
  return { rerun, isPending: runs.isPending };
}
