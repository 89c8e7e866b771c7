"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { FormDialog } from "@/components/ui/form-dialog";
import { useConfirm } from "@/components/ui/dialog";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/feedback";
import { inputClass } from "@/components/ui/field";
import { useMutationToast } from "../hooks/use-mutation-toast";

type Candidate = { id: string; name: string | null; email: string; role: string };

const nameOf = (c: Candidate) => c.name ?? c.email;

/** "12 items: 6 each" or "13 items: 6 or 7 each" (the server splits evenly, rounding down or up; its answer is the count). */
function splitText(items: number, people: number): string {
  const low = Math.floor(items / people);
  const each = items % people === 0 ? `${low} each` : `${low} or ${low + 1} each`;
  return `${items} item${items === 1 ? "" : "s"} between ${people} ${people === 1 ? "person" : "people"}: ${each}`;
}

/**
 * "Assign reviewers…" (issue 23, managers only: eval.manage): tick the people the run's items are split between,
 * evenly and at random (PUT /runs/{id}/assignees, the server's seeded split); the people are the server's candidates
 * (GET /runs/{id}/assignees: enabled users who may review), ticked as the run is assigned now. "Remove the
 * assignment" sends the empty list, after a confirmation naming who loses their items. The Reviewers table reads its
 * counts again after either.
 */
export function AssignDialog({
  runId,
  itemCount,
  open,
  onClose,
}: {
  runId: string;
  itemCount: number;
  open: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const { ok, fail, refresh } = useMutationToast();
  const confirm = useConfirm();
  // read when the dialog opens (every user who may review is no business of a page that only shows the run)
  const current = useQuery({ ...trpc.eval.runs.assignees.queryOptions({ id: runId }), enabled: open });
  const [picked, setPicked] = useState<string[]>([]);
  const [filter, setFilter] = useState("");
  const assigned = current.data?.userIds;
  // each opening starts from the run's assignment as stored
  useEffect(() => {
    if (open) {
      setPicked(assigned ?? []);
      setFilter("");
    }
  }, [open, assigned]);
  const candidates = current.data?.candidates ?? [];
  const byId = useMemo(() => new Map(candidates.map((c) => [c.id, c])), [candidates]);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q ? candidates.filter((c) => `${c.name ?? ""} ${c.email}`.toLowerCase().includes(q)) : candidates;
  }, [candidates, filter]);
  const assign = useMutation(
    trpc.eval.runs.assign.mutationOptions({
      onSuccess: async (out) => {
        if (out.userIds.length === 0) ok("Assignment removed", "Every item is open to everyone's queue again.");
        else
          ok(
            `Assigned to ${out.userIds.length} ${out.userIds.length === 1 ? "person" : "people"}`,
            out.assigned
              .map((a) => `${byId.get(a.userId) ? nameOf(byId.get(a.userId)!) : a.userId}: ${a.items}`)
              .join(" · "),
          );
        await refresh();
        onClose();
      },
      onError: fail("Not assigned"),
    }),
  );
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));
  const names = picked.map((id) => (byId.get(id) ? nameOf(byId.get(id)!) : id));
  const isAssigned = (assigned?.length ?? 0) > 0;

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      size="lg"
      title="Assign reviewers"
      description="The run's items are split evenly and at random between the people you tick. Each person's queue starts with their own items; the others' items stay reachable, marked as someone else's."
      submitLabel={picked.length ? `Assign to ${picked.length} ${picked.length === 1 ? "person" : "people"}` : "Assign"}
      pendingLabel="Assigning…"
      pending={assign.isPending}
      canSubmit={picked.length > 0 && current.isSuccess}
      onSubmit={() => assign.mutate({ id: runId, body: { userIds: picked } })}
      extra={
        isAssigned ? (
          <Button
            variant="danger"
            className="mr-auto"
            disabled={assign.isPending}
            onClick={async () => {
              const people = assigned!.map((id) => (byId.get(id) ? nameOf(byId.get(id)!) : id)).join(", ");
              const sure = await confirm({
                title: "Remove the assignment?",
                description: `${people} no longer have their own share of the ${itemCount} items: every item is open to everyone's queue again. Reviews already given stay.`,
                confirmLabel: "Remove the assignment",
                cancelLabel: "Keep it",
                destructive: true,
              });
              if (sure) assign.mutate({ id: runId, body: { userIds: [] } });
            }}
          >
            Remove the assignment
          </Button>
        ) : undefined
      }
    >
      {current.isPending ? (
        <LoadingRows rows={4} label="Loading the people who may review" />
      ) : current.isError ? (
        <ErrorState
          title="The people could not be loaded"
          error={current.error}
          onRetry={() => void current.refetch()}
        />
      ) : candidates.length === 0 ? (
        <EmptyState title="Nobody may review yet">
          No enabled user has a role that may review (annotator, builder or admin). An admin adds people in Settings.
        </EmptyState>
      ) : (
        <div className="space-y-3">
          {isAssigned && (
            <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="assignment-now">
              Assigned now to {assigned!.map((id) => (byId.get(id) ? nameOf(byId.get(id)!) : id)).join(", ")}. Assigning
              again replaces the split.
            </p>
          )}
          <label className="block text-sm font-medium text-slate-700">
            Find a person
            <input
              type="search"
              className={`${inputClass} mt-1`}
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder="Name or e-mail"
            />
          </label>
          <fieldset>
            <legend className="sr-only">People who may review</legend>
            {shown.length === 0 ? (
              <p className="px-1 py-3 text-sm text-slate-600">Nobody matches “{filter.trim()}”.</p>
            ) : (
              <ul className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200">
                {shown.map((c) => (
                  <li key={c.id}>
                    <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-slate-50">
                      <input
                        type="checkbox"
                        className="size-4 shrink-0 accent-brand-600"
                        checked={picked.includes(c.id)}
                        onChange={() => toggle(c.id)}
                      />
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-medium text-slate-900">{nameOf(c)}</span>
                        {c.name && <span className="block truncate text-xs text-slate-600">{c.email}</span>}
                      </span>
                      <span className="text-xs text-slate-600">{c.role}</span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
          <p className="text-sm text-slate-700" aria-live="polite" data-testid="assign-summary">
            {picked.length === 0
              ? "Nobody ticked yet."
              : `${names.join(", ")}: ${splitText(itemCount, picked.length)}.`}
          </p>
        </div>
      )}
    </FormDialog>
  );
}
