"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import type { BoardCard } from "../types";

/** The online loop's board of an agent (`eval.online.board`) and its cards. */
export function useLoopBoard(agentId: string) {
  const trpc = useTRPC();
  // the board sums up work done in the other tabs (verdicts, Bad Cases, re-runs): read it afresh whenever it is shown
  const board = useQuery({ ...trpc.eval.online.board.queryOptions({ agentId }), refetchOnMount: "always" });
  const cards = (board.data?.cards ?? []) as BoardCard[];
  return { board, cards };
}
