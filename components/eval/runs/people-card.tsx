"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { Card } from "@/components/ui/card";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";

/**
 * Each person's part in a run (GET /runs/{id}/progress `people`, counted by the server): reviewed, reserved now,
 * assigned, left of their assigned items, and their pace.
 */
export function PeopleCard({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const progress = useQuery({ ...trpc.eval.items.progress.queryOptions({ id: runId }), refetchInterval: 30_000 });
  const people = progress.data?.people;
  if (!people) return null;
  return (
    <Card
      title="Reviewers"
      description="Per person: verdicts given, items reserved now, assigned items and those left."
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
    </Card>
  );
}
