"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useConfirm } from "@/components/ui/dialog";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { deniedReason, useCaps, useEvalUrl, EvalLink } from "../context";
import { KindBadge, VersionBadge } from "../badges";
import { when } from "../format";
import type { EvalVersion } from "../types";
import { Breadcrumbs } from "../breadcrumbs";
import { SetDialog } from "./set-dialog";
import { useVersionActions } from "./use-version-actions";
import { useSetsChanged } from "./use-sets-changed";
import { useMutationToast } from "../hooks/use-mutation-toast";
import { SetTrend } from "./set-trend";
import { JudgeCard } from "./judge-card";

/** One set: what it is, its gate, its versions (open, copy into a new draft, freeze, delete a draft). */
export function SetView({ setId }: { setId: string }) {
  const trpc = useTRPC();
  const setsChanged = useSetsChanged();
  const confirm = useConfirm();
  const toast = useToast();
  const { fail } = useMutationToast();
  const { caps, role } = useCaps();
  const [, go] = useEvalUrl();
  const [editing, setEditing] = useState(false);
  const set = useQuery(trpc.eval.sets.get.queryOptions({ id: setId }));
  const actions = useVersionActions(setId);
  const del = useMutation(
    trpc.eval.sets.delete.mutationOptions({
      onSuccess: async () => {
        toast({ tone: "success", title: "Set deleted" });
        await setsChanged();
        go({ tab: "sets" });
      },
      onError: fail("The set was not deleted"),
    }),
  );
  if (set.error) return <ErrorState error={set.error} onRetry={() => set.refetch()} />;
  if (!set.data) return <LoadingRows rows={4} label="Loading the set" />;
  const s = set.data;
  const manageTitle = caps.manage ? undefined : deniedReason(role, "manage");
  const hasRuns = s.versions.some((v) => v.runCount > 0);

  return (
    <div className="space-y-5">
      <Breadcrumbs items={[{ label: "Evaluation sets", to: { tab: "sets" } }, { label: s.name }]} />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold">{s.name}</h2>
            <KindBadge kind={s.kind} />
          </div>
          {s.description && <p className="mt-1 max-w-3xl text-sm text-slate-600">{s.description}</p>}
          <p className="mt-2 text-sm text-slate-700">
            {s.kind === "golden"
              ? `Gate: at least ${s.gateThreshold} human-confirmed passes (applies to runs created from now on).`
              : "Regression pool: its runs never pass a release gate."}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setEditing(true)} disabled={!caps.manage} title={manageTitle}>
            Edit
          </Button>
          <Button
            variant="danger"
            disabled={!caps.manage || hasRuns || del.isPending}
            title={
              !caps.manage
                ? manageTitle
                : hasRuns
                  ? "Runs reference this set; they are kept for history, so the set cannot be deleted."
                  : undefined
            }
            onClick={async () => {
              if (
                await confirm({
                  title: `Delete “${s.name}”?`,
                  description: "Its versions and samples are deleted too. This cannot be undone.",
                  confirmLabel: "Delete set",
                  destructive: true,
                })
              )
                del.mutate({ id: s.id });
            }}
          >
            Delete
          </Button>
        </div>
      </div>

      <Card
        title="Versions"
        description="A run uses a frozen version. To change questions, create a new version from one and edit the draft."
        bodyClassName="p-0"
      >
        <Table caption="Versions of the set">
          <THead>
            <tr>
              <Th>Version</Th>
              <Th>Samples</Th>
              <Th>Runs</Th>
              <Th>Note</Th>
              <Th>Created / frozen</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          </THead>
          <tbody>
            {[...s.versions].reverse().map((v: EvalVersion) => (
              <Tr key={v.id}>
                <Td>
                  <EvalLink
                    to={{ tab: "sets", set: s.id, v: v.version }}
                    className="font-medium text-brand-700 hover:underline"
                  >
                    <VersionBadge version={v.version} status={v.status} />
                  </EvalLink>
                </Td>
                <Td className="tabular-nums">{v.sampleCount}</Td>
                <Td className="tabular-nums">{v.runCount}</Td>
                <Td className="max-w-xs truncate text-slate-600">{v.note || "—"}</Td>
                <Td className="text-slate-600">
                  {v.status === "frozen" ? `frozen ${when(v.frozenAt)}` : `created ${when(v.createdAt)}`}
                </Td>
                <Td className="text-right">
                  <div className="flex justify-end gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={!caps.manage || actions.busy}
                      title={manageTitle}
                      onClick={() => actions.newVersion(v.version)}
                    >
                      New version from this
                    </Button>
                    {v.status === "draft" && (
                      <>
                        <Button
                          size="sm"
                          disabled={!caps.manage || actions.busy || v.sampleCount === 0}
                          title={manageTitle ?? (v.sampleCount === 0 ? "Add samples first" : undefined)}
                          onClick={() => actions.freeze(v)}
                        >
                          Freeze
                        </Button>
                        <Button
                          size="sm"
                          variant="danger"
                          disabled={!caps.manage || actions.busy}
                          title={manageTitle}
                          onClick={() => actions.remove(v)}
                        >
                          Delete
                        </Button>
                      </>
                    )}
                  </div>
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      </Card>
      <JudgeCard set={s} />
      {hasRuns && <SetTrend setId={s.id} />}
      <SetDialog open={editing} onClose={() => setEditing(false)} agentId={s.agentId} set={s} />
    </div>
  );
}
