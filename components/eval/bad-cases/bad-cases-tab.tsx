"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useVocabulary } from "../hooks/use-vocabulary";
import { useCursorPages } from "../use-cursor-pages";
import { Badge, badgeClass } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormDialog } from "@/components/ui/form-dialog";
import { cn } from "@/components/ui/cn";
import { FilterField, FilterSelect, inputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { LoadMore, Pagination } from "@/components/ui/pagination";
import { SearchInput } from "@/components/ui/search-input";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { deniedReason, useCaps, useEvalUrl, EvalLink } from "../context";
import { BadCaseBadge, badCaseTone } from "../badges";
import { Breadcrumbs } from "../breadcrumbs";
import { ago, plural, when, words } from "../format";
import { useCreateAndStart } from "../runs/use-create-and-start";
import type { BadCase, BadCaseDetail } from "../types";
import { useMutationToast } from "../hooks/use-mutation-toast";

const PAGE = 50;

/** Bad Cases across the agent's runs: filters, status changes, "a Bad Case for every fail" of a run, and each case's page. */
export function BadCasesTab({ agentId }: { agentId: string }) {
  const [url] = useEvalUrl();
  return url.case ? <BadCaseView id={url.case} /> : <BadCaseList agentId={agentId} />;
}

export function useBadCaseStatuses() {
  const meta = useVocabulary();
  return { statuses: meta.data?.badCaseStatuses ?? [], attributions: Object.keys(meta.data?.attributions ?? {}) };
}

function BadCaseList({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const { caps, role } = useCaps();
  const [url, go] = useEvalUrl();
  const { statuses, attributions } = useBadCaseStatuses();
  const pages = useCursorPages();
  const [bulk, setBulk] = useState(false);
  const cursor = pages.cursor;
  const status = statuses.find((s) => s === url.status);
  const attribution = attributions.find((a) => a === url.attribution);
  const sets = useQuery(trpc.eval.sets.list.queryOptions({ agentId, limit: 200 }));
  const list = useQuery({
    ...trpc.eval.badCases.list.queryOptions({
      agentId,
      limit: PAGE,
      ...(status ? { status } : {}),
      ...(attribution ? { attribution: attribution as never } : {}),
      ...(url.cls ? { classification: url.cls } : {}),
      ...(url.run ? { runId: url.run } : {}),
      ...(url.set ? { setId: url.set } : {}),
      ...(cursor ? { cursor } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const setFilter = (patch: Parameters<typeof go>[0]) => {
    pages.reset();
    go(patch, { replace: true });
  };
  const rows = list.data?.items ?? [];
  const page = pages.page;
  const filtered = !!(url.status || url.attribution || url.cls || url.run || url.set);
  const scenarios = [...new Set(rows.map((b) => b.classification).filter(Boolean))].sort();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Filters">
          <FilterSelect
            label="Status"
            className="w-40"
            value={url.status}
            onChange={(status) => setFilter({ status })}
            any="Any status"
            options={statuses.map((s) => ({ value: s, label: s === "wont_fix" ? "won't fix" : words(s) }))}
          />
          <FilterSelect
            label="Attribution"
            className="w-44"
            value={url.attribution}
            onChange={(attribution) => setFilter({ attribution })}
            any="Any attribution"
            options={attributions.map((a) => ({ value: a, label: words(a) }))}
          />
          <FilterField label="Scenario">
            <SearchInput
              className="mt-1 w-44"
              value={url.cls}
              onCommit={(cls) => setFilter({ cls })}
              placeholder="Any scenario"
              list="bad-case-scenarios"
            />
            <datalist id="bad-case-scenarios">
              {scenarios.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </FilterField>
          <FilterSelect
            label="Set"
            className="w-48"
            value={url.set}
            onChange={(set) => setFilter({ set })}
            any="All sets"
            options={[
              // a set named by the URL that is not listed (yet) stays selectable
              ...(url.set && sets.data && !sets.data.items.some((x) => x.id === url.set)
                ? [{ value: url.set, label: url.set }]
                : []),
              ...(sets.data?.items ?? []).map((x) => ({ value: x.id, label: x.name })),
            ]}
          />
          <FilterField label="Run">
            <SearchInput
              className="mt-1 w-32 font-mono"
              value={url.run}
              onCommit={(run) => setFilter({ run: run?.toUpperCase() })}
              placeholder="R-XXXXX"
            />
          </FilterField>
          {filtered && (
            <Button
              variant="ghost"
              onClick={() =>
                setFilter({ status: undefined, attribution: undefined, cls: undefined, run: undefined, set: undefined })
              }
            >
              Clear filters
            </Button>
          )}
        </div>
        <Button
          variant="secondary"
          onClick={() => setBulk(true)}
          disabled={!caps.annotate}
          title={caps.annotate ? undefined : deniedReason(role, "annotate")}
        >
          Bad Cases for every fail of a run…
        </Button>
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : list.isLoading ? (
        <LoadingRows rows={5} label="Loading Bad Cases" />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState title="No Bad Case matches these filters">Clear a filter to see more.</EmptyState>
        ) : (
          <EmptyState title="No Bad Case yet">
            A failed answer becomes a Bad Case from the annotation view, or all fails of a run at once with the button
            above. Fix them, re-run the same batch and compare.
          </EmptyState>
        )
      ) : (
        <>
          <Table caption="Bad Cases">
            <THead>
              <tr>
                <Th className="min-w-56">Bad Case</Th>
                <Th className="w-36">Status</Th>
                <Th>Attribution</Th>
                <Th>Scenario</Th>
                <Th>From</Th>
                <Th>Created</Th>
                <Th>Updated</Th>
              </tr>
            </THead>
            <tbody>
              {rows.map((b) => (
                <Tr key={b.id}>
                  <Td className="max-w-md">
                    <EvalLink
                      to={{ tab: "bad-cases", case: b.id }}
                      className="font-medium text-slate-900 hover:text-brand-700 hover:underline"
                    >
                      {b.title}
                    </EvalLink>
                  </Td>
                  <Td>
                    <StatusSelect badCase={b} />
                  </Td>
                  <Td>{b.attribution ? words(b.attribution) : "—"}</Td>
                  <Td>{b.classification || "—"}</Td>
                  <Td className="text-xs">
                    <EvalLink
                      to={{ tab: "annotation", run: b.runShortId, item: b.itemId }}
                      className="font-mono text-brand-700 hover:underline"
                    >
                      {b.runShortId} · {b.sampleKey}
                    </EvalLink>
                    <div className="text-slate-500">{b.setName}</div>
                  </Td>
                  <Td className="whitespace-nowrap text-slate-600">
                    <span title={when(b.createdAt)}>{ago(b.createdAt)}</span>
                    <div className="text-xs text-slate-500">by {b.createdByLabel ?? "—"}</div>
                  </Td>
                  <Td className="whitespace-nowrap text-slate-600">
                    <span title={when(b.updatedAt)}>{ago(b.updatedAt)}</span>
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
          <Pagination
            label="Bad Case pages"
            from={page * PAGE + 1}
            to={page * PAGE + rows.length}
            hasPrev={page > 0}
            hasNext={!!list.data?.nextCursor}
            onPrev={pages.prev}
            onNext={() => pages.next(list.data?.nextCursor)}
          />
        </>
      )}
      <BulkDialog open={bulk} onClose={() => setBulk(false)} agentId={agentId} />
    </div>
  );
}

function StatusSelect({ badCase }: { badCase: BadCase }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { fail } = useMutationToast();
  const { caps, role } = useCaps();
  const { statuses } = useBadCaseStatuses();
  const update = useMutation(
    trpc.eval.badCases.update.mutationOptions({
      onSuccess: async (b) => {
        toast({ tone: "success", title: `Bad Case is ${b.status === "wont_fix" ? "won't fix" : words(b.status)}` });
        await qc.invalidateQueries({ queryKey: trpc.eval.badCases.pathKey() });
      },
      onError: fail("Status not changed"),
    }),
  );
  // one control, not a badge beside a select saying the same word: those who may change the status get the select
  // in the status's colours; the others see the badge, with the reason they cannot change it. "verified" is not an
  // option: it is the case page's Verify button, which says what it rests on (the run and who passed the question)
  if (!caps.annotate) {
    return (
      <span title={deniedReason(role, "annotate")}>
        <BadCaseBadge status={badCase.status} />
      </span>
    );
  }
  return (
    <select
      aria-label={`Change the status of ${badCase.title}`}
      className={cn(
        badgeClass({ tone: badCaseTone(badCase.status), size: "sm" }),
        "cursor-pointer border-0 py-0.5 pr-6 disabled:cursor-wait",
      )}
      value={badCase.status}
      disabled={update.isPending}
      onChange={(e) => update.mutate({ id: badCase.id, body: { status: e.target.value as BadCase["status"] } })}
    >
      {statuses
        .filter((s) => s !== "verified" || badCase.status === "verified")
        .map((s) => (
          <option key={s} value={s}>
            {s === "wont_fix" ? "won't fix" : words(s)}
          </option>
        ))}
    </select>
  );
}

/**
 * "A Bad Case for every fail" of one run: the runs offered are those with failed questions that have no Bad Case yet,
 * with how many (found by the server, searchable by Run ID, set or environment, a page at a time).
 */
function BulkDialog({ open, onClose, agentId }: { open: boolean; onClose: () => void; agentId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { fail } = useMutationToast();
  const [q, setQ] = useState<string | undefined>(undefined);
  const [run, setRun] = useState("");
  const runs = useInfiniteQuery({
    ...trpc.eval.runs.list.infiniteQueryOptions(
      { agentId, unfiledFails: true, limit: 20, ...(q ? { q } : {}) },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    enabled: open,
  });
  const offered = runs.data?.pages.flatMap((p) => p.items) ?? [];
  const chosen = offered.find((r) => r.id === run);
  const create = useMutation(
    trpc.eval.runs.badCases.mutationOptions({
      onSuccess: async (r) => {
        toast({
          tone: "success",
          title: r.created
            ? `${r.created} Bad Case${r.created === 1 ? "" : "s"} created`
            : "Every fail already has a Bad Case",
        });
        await qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
        setRun("");
        onClose();
      },
      onError: fail("No Bad Case created"),
    }),
  );
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      size="lg"
      title="A Bad Case for every fail"
      description="Every question of the run whose verdict is fail gets a Bad Case (those that have one are left alone). Runs with such fails are listed."
      submitLabel={chosen ? `Create ${plural(chosen.progress.unfiledFails, "Bad Case")}` : "Create Bad Cases"}
      pendingLabel="Creating…"
      canSubmit={!!chosen}
      pending={create.isPending}
      onSubmit={() => chosen && create.mutate({ id: chosen.id })}
      className="space-y-3"
    >
      <label className="block text-sm font-medium text-slate-800">
        Find a run
        <SearchInput className="mt-1" value={q} onCommit={setQ} placeholder="Run ID, set or environment" />
      </label>
      {runs.error ? (
        <ErrorState error={runs.error} onRetry={() => runs.refetch()} />
      ) : runs.isLoading ? (
        <LoadingRows rows={3} label="Loading runs with fails" />
      ) : offered.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-600">
          {q
            ? `No run matching “${q}” has a fail without a Bad Case.`
            : "Every failed question of this agent's runs already has a Bad Case."}
        </p>
      ) : (
        <fieldset>
          <legend className="sr-only">Run</legend>
          <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200">
            {offered.map((r) => (
              <li key={r.id}>
                <label
                  className={cn(
                    "flex cursor-pointer items-center gap-3 px-3 py-2 text-sm",
                    run === r.id ? "bg-brand-50" : "hover:bg-slate-50",
                  )}
                >
                  <input
                    type="radio"
                    name="bad-case-run"
                    value={r.id}
                    checked={run === r.id}
                    onChange={() => setRun(r.id)}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="font-mono font-semibold">{r.shortId}</span> · {r.setName} v{r.setVersion}
                    {r.environment ? <span className="text-slate-600"> · {r.environment}</span> : null}
                    <span className="block text-xs text-slate-600">
                      created {ago(r.createdAt)} · {r.progress.judged}/{r.progress.total} judged
                    </span>
                  </span>
                  <Badge tone="danger">
                    {plural(r.progress.unfiledFails, "fail")} without a Bad Case
                    {r.progress.fails > r.progress.unfiledFails ? ` (of ${r.progress.fails})` : ""}
                  </Badge>
                </label>
              </li>
            ))}
          </ul>
          <LoadMore
            shown={offered.length}
            hasMore={!!runs.hasNextPage}
            loading={runs.isFetchingNextPage}
            onLoadMore={() => runs.fetchNextPage()}
            noun="runs"
          />
        </fieldset>
      )}
    </FormDialog>
  );
}

function BadCaseView({ id }: { id: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { fail } = useMutationToast();
  const { caps, role } = useCaps();
  const [, go] = useEvalUrl();
  // the case sums up work done in other tabs (the re-run's answers and verdicts): read it afresh whenever it is shown
  const bc = useQuery({ ...trpc.eval.badCases.get.queryOptions({ id }), refetchOnMount: "always" });
  const item = useQuery({
    ...trpc.eval.items.get.queryOptions({ id: bc.data?.runId ?? "", itemId: bc.data?.itemId ?? "" }),
    enabled: !!bc.data,
  });
  const [notes, setNotes] = useState<string | null>(null);
  const save = useMutation(
    trpc.eval.badCases.update.mutationOptions({
      onSuccess: async () => {
        toast({ tone: "success", title: "Bad Case saved" });
        setNotes(null);
        await qc.invalidateQueries({ queryKey: trpc.eval.badCases.pathKey() });
      },
      onError: fail("Not saved"),
    }),
  );
  // the same batch again, created AND started (like the board's run button): the shared create-and-start hook
  const runs = useCreateAndStart();
  async function rerun(runId: string) {
    const out = await runs.rerunAndStart(runId);
    if (!out.ok && out.step === "create") {
      toast({ tone: "error", title: "No re-run", description: out.message });
      return;
    }
    // started, or created and not answering (the hook said so and why): the run's page is next either way
    if (out.ok)
      toast({
        tone: "success",
        title: `Re-run ${out.run.shortId} started`,
        description: "Judge the question when it is answered, then verify the Bad Case here.",
      });
    await qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
    go({ tab: "runs", run: out.run.shortId });
  }
  if (bc.error) return <ErrorState error={bc.error} onRetry={() => bc.refetch()} />;
  if (!bc.data) return <LoadingRows rows={4} label="Loading the Bad Case" />;
  const b = bc.data;
  const later = b.latestRun;
  return (
    <div className="space-y-5">
      <Breadcrumbs items={[{ label: "Bad Case", to: { tab: "bad-cases" } }, { label: b.sampleKey }]} />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold">{b.title}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {b.setName} · question {b.sampleKey} · run {b.runShortId} · created {ago(b.createdAt)} by{" "}
            {b.createdByLabel ?? "—"}
          </p>
        </div>
        <StatusSelect badCase={b} />
      </div>
      <div className="grid gap-5 lg:grid-cols-[1fr_22rem]">
        <Card title="The failed answer">
          <div className="space-y-3 text-sm">
            <p className="font-medium text-slate-900">{b.question}</p>
            {item.data && (
              <>
                <p className="whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-slate-800">
                  {item.data.answer || item.data.error || "(no answer)"}
                </p>
                {item.data.verdict?.basis && (
                  <p className="text-slate-700">
                    <span className="font-medium">Basis:</span> {item.data.verdict.basis}
                  </p>
                )}
              </>
            )}
            <div>
              <h3 className="font-medium text-slate-800">Expected points</h3>
              {b.expectedPoints.length ? (
                <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700" aria-label="Expected points">
                  {b.expectedPoints.map((p, i) => (
                    <li key={i}>{p}</li>
                  ))}
                </ul>
              ) : (
                <p className="mt-1 text-slate-500">None.</p>
              )}
            </div>
            <p className="text-slate-700">
              <span className="font-medium">Attribution:</span> {b.attribution ? words(b.attribution) : "—"} ·{" "}
              <span className="font-medium">Scenario:</span> {b.classification || "—"}
            </p>
            <EvalLink
              to={{ tab: "annotation", run: b.runShortId, item: b.itemId }}
              className="inline-block font-medium text-brand-700 hover:underline"
            >
              Open it in annotation →
            </EvalLink>
          </div>
        </Card>
        <Card title="After the fix">
          <div className="space-y-3 text-sm">
            <p className="text-slate-600">
              Fix the agent, then re-run the same batch: the question should now pass. Once a person passed it in a
              later run, verify the Bad Case.
            </p>
            <Button
              variant="secondary"
              className="w-full"
              disabled={!caps.manage || runs.isPending}
              title={caps.manage ? "Creates the re-run and starts it" : deniedReason(role, "manage")}
              onClick={() => rerun(b.runId)}
            >
              {runs.isPending ? "Starting the re-run…" : "Re-run the same batch"}
            </Button>
            {later ? (
              <div className="rounded-lg bg-slate-50 p-2" aria-label="The latest re-run">
                <p className="text-slate-800">
                  <span className="font-medium">
                    {later.runId === b.verifiableBy?.runId ? "Re-run" : "Latest re-run"}
                  </span>{" "}
                  <EvalLink
                    to={{ tab: "annotation", run: later.runShortId, item: later.itemId }}
                    className="font-mono font-medium text-brand-700 hover:underline"
                  >
                    {later.runShortId}
                  </EvalLink>
                  : <LaterVerdict later={later} />
                </p>
                <EvalLink
                  to={{ tab: "runs", view: "compare", a: b.runShortId, b: later.runShortId, q: b.sampleKey }}
                  className="mt-1 block font-medium text-brand-700 hover:underline"
                >
                  Compare {b.runShortId} with {later.runShortId} →
                </EvalLink>
              </div>
            ) : (
              <p className="text-xs text-slate-500">No re-run yet.</p>
            )}
            <Verify badCase={b} />
          </div>
        </Card>
      </div>
      <Card title="History">
        <ol className="space-y-2 text-sm" aria-label="History of the Bad Case">
          {b.history.map((h, i) => (
            <li key={i} className="flex flex-wrap items-baseline gap-2">
              <span className="w-32 shrink-0 text-xs text-slate-500" title={when(h.at)}>
                {ago(h.at)}
              </span>
              {h.kind === "created" ? (
                <span>
                  Created from {h.runShortId ?? "its run"} by {h.byLabel ?? "—"}
                </span>
              ) : (
                <span>
                  {h.fromStatus ? <BadCaseBadge status={h.fromStatus} /> : null} → <BadCaseBadge status={h.toStatus} />{" "}
                  by {h.byLabel ?? "—"}
                  {h.toStatus === "verified" && h.runShortId && (
                    <>
                      {" "}
                      · passed (human verdict) in{" "}
                      <EvalLink
                        to={{ tab: "runs", run: h.runShortId }}
                        className="font-mono text-brand-700 hover:underline"
                      >
                        {h.runShortId}
                      </EvalLink>
                    </>
                  )}
                </span>
              )}
            </li>
          ))}
        </ol>
      </Card>
      <Card title="Notes">
        <textarea
          className={inputClass}
          rows={3}
          value={notes ?? b.notes}
          onChange={(e) => setNotes(e.target.value)}
          disabled={!caps.annotate}
          aria-label="Notes"
        />
        <div className="mt-2 flex justify-end">
          <Button
            size="sm"
            disabled={notes === null || save.isPending || !caps.annotate}
            onClick={() => save.mutate({ id: b.id, body: { notes: notes ?? "" } })}
          >
            Save notes
          </Button>
        </div>
      </Card>
    </div>
  );
}

/** What a later run said of the question: its verdict and who gave it, or why there is none yet. */
function LaterVerdict({ later }: { later: NonNullable<BadCaseDetail["latestRun"]> }) {
  if (later.verdict)
    return (
      <>
        <Badge tone={later.verdict === "pass" ? "success" : "danger"}>{later.verdict}</Badge>
        {later.byLabel && (
          <span className="text-slate-600">
            {" "}
            {later.verdictSource === "adopted" ? "adopted" : "judged"} by {later.byLabel}
          </span>
        )}
      </>
    );
  if (later.itemStatus === "answered" || later.itemStatus === "failed")
    return <span className="text-slate-600">answered, not judged yet</span>;
  return (
    <span className="text-slate-600">
      not answered yet (the run is {words(later.runStatus)}
      {later.itemStatus === "cancelled" ? ", the question was cancelled" : ""})
    </span>
  );
}

/**
 * Verifying is one button that says what it rests on ("Verify: passed in R-KC3Q5 by Ana"): the newest later run with a
 * pass for the question (the server checks the same rule). Without one it says what is missing.
 */
function Verify({ badCase: b }: { badCase: BadCaseDetail }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { fail } = useMutationToast();
  const { caps, role } = useCaps();
  const update = useMutation(
    trpc.eval.badCases.update.mutationOptions({
      onSuccess: async () => {
        toast({ tone: "success", title: "Bad Case verified" });
        await qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
      },
      onError: fail("Not verified"),
    }),
  );
  if (b.status === "verified") {
    const by = [...b.history].reverse().find((h) => h.toStatus === "verified");
    return (
      <p className="rounded-lg bg-emerald-50 p-2 text-emerald-900 ring-1 ring-emerald-200">
        Verified{by?.runShortId ? `: passed in ${by.runShortId}` : ""}
        {by?.byLabel ? `, verified by ${by.byLabel}` : ""}.
      </p>
    );
  }
  const e = b.verifiableBy;
  if (!e)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 p-2 text-slate-600">
        Not verifiable yet: no later run of {b.setName} has a pass for {b.sampleKey}.
      </p>
    );
  const basis = `passed in ${e.runShortId}${e.byLabel ? ` by ${e.byLabel}` : ""}${e.verdictSource === "adopted" ? " (adopted)" : ""}`;
  return (
    <Button
      className="w-full"
      disabled={!caps.annotate || update.isPending}
      title={caps.annotate ? `Set the status to verified: ${basis}` : deniedReason(role, "annotate")}
      onClick={() => update.mutate({ id: b.id, body: { status: "verified" } })}
    >
      Verify: {basis}
    </Button>
  );
}
