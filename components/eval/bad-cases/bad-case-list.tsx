"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FilterField, FilterSelect } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Pagination } from "@/components/ui/pagination";
import { SearchInput } from "@/components/ui/search-input";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { deniedReason, useCaps, EvalLink } from "../context";
import { ago, when, words } from "../format";
import { BulkDialog } from "./bulk-dialog";
import { StatusSelect } from "./status-select";
import { BAD_CASE_PAGE, statusWords, useBadCaseList } from "./use-bad-cases";

/** The agent's Bad Cases: filters in the URL, a page of the table, and "a Bad Case for every fail" of a run. */
export function BadCaseList({ agentId }: { agentId: string }) {
  const { caps, role } = useCaps();
  const { url, statuses, attributions, sets, list, pages, setFilter, filtered } = useBadCaseList(agentId);
  const [bulk, setBulk] = useState(false);
  const rows = list.data?.items ?? [];
  const page = pages.page;
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
            options={statuses.map((s) => ({ value: s, label: statusWords(s) }))}
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
            from={page * BAD_CASE_PAGE + 1}
            to={page * BAD_CASE_PAGE + rows.length}
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
