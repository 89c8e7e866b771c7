"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useCaps } from "../context";
import { AssignDialog } from "./assign-dialog";

/**
 * Each person's part in a run (GET /runs/{id}/progress `people`, counted by the server): reviewed, reserved now,
 * assigned, left of their assigned items, and their pace. Managers (eval.manage) also get "Assign reviewers…"
 * (`assign-dialog.tsx`); for anyone else the control is not there (the server refuses them 403 too).
 */
export function PeopleCard({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const { caps } = useCaps();
  const [assigning, setAssigning] = useState(false);
  const progress = useQuery({ ...trpc.eval.items.progress.queryOptions({ id: runId }), refetchInterval: 30_000 });
  const people = progress.data?.people;
  if (!people) return null;
  const assignedNow = people.some((p) => p.assigned > 0);
  return (
    <Card
      title="Reviewers"
      description="Per person: verdicts given, items reserved now, assigned items and those left."
      actions={
        caps.manage && (
          <Button variant="secondary" size="sm" onClick={() => setAssigning(true)}>
            {assignedNow ? "Change the assignment…" : "Assign reviewers…"}
          </Button>
        )
      }
    >
      {people.length === 0 ? (
        <p className="text-sm text-slate-500">Nobody has reviewed, reserved or been assigned an item yet.</p>
      ) : (
        <Table caption="Reviewers of this run" className="rounded-none border-0">
          <THead>
            <tr>
              <Th>Person</Th>
              <Th className="text-right">Reviewed</Th>
              <Th className="text-right">Reserved</Th>
              <Th className="text-right">Assigned</Th>
              <Th className="text-right">Left</Th>
              <Th className="text-right">Items / hour</Th>
            </tr>
          </THead>
          <tbody>
            {people.map((p) => (
              <Tr key={p.userId}>
                <Td className="font-medium">{p.name ?? p.userId}</Td>
                <Td className="text-right tabular-nums">{p.reviewed}</Td>
                <Td className="text-right tabular-nums">{p.reserved}</Td>
                <Td className="text-right tabular-nums">{p.assigned}</Td>
                <Td className="text-right tabular-nums">{p.assigned ? p.left : "—"}</Td>
                <Td className="text-right tabular-nums">{p.itemsPerHour ?? "—"}</Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
      {caps.manage && (
        <AssignDialog
          runId={runId}
          itemCount={progress.data?.progress.total ?? 0}
          open={assigning}
          onClose={() => setAssigning(false)}
        />
      )}
    </Card>
  );
}
