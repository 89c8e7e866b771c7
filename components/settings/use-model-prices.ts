"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";

/** One editable row of the price table: text as typed, parsed on save. */
export type PriceRow = { key: number; model: string; prompt: string; completion: string; currency: string };

let nextKey = 1;
const blank = (currency = "USD"): PriceRow => ({ key: nextKey++, model: "", prompt: "", completion: "", currency });

/** A row's problem for people, or null (the server checks the same again: server/core/prices.ts). */
export function rowProblem(r: PriceRow): string | null {
  if (!r.model.trim()) return "a model name is missing";
  for (const [label, v] of [
    ["prompt", r.prompt],
    ["completion", r.completion],
  ] as const) {
    const n = Number(v);
    if (v.trim() === "" || !Number.isFinite(n) || n < 0) return `${r.model}: the ${label} price must be a number ≥ 0`;
  }
  if (!/^[A-Za-z]{3}$/.test(r.currency.trim())) return `${r.model}: the currency must be three letters, e.g. USD`;
  return null;
}

/** The model price table of Settings: the stored rows, local edits, save (replaces the table). */
export function useModelPrices() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const table = useQuery(trpc.admin.modelPrices.get.queryOptions());
  const [rows, setRows] = useState<PriceRow[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (table.data && rows === null)
      setRows(
        table.data.prices.map((p) => ({
          key: nextKey++,
          model: p.model,
          prompt: String(p.promptPerMillion),
          completion: String(p.completionPerMillion),
          currency: p.currency,
        })),
      );
  }, [table.data, rows]);
  const save = useMutation(
    trpc.admin.modelPrices.put.mutationOptions({
      onSuccess: async (data) => {
        queryClient.setQueryData(trpc.admin.modelPrices.get.queryKey(), data);
        setSaved(true);
      },
    }),
  );
  const change = (key: number, patch: Partial<PriceRow>) => {
    setSaved(false);
    setRows((rs) => (rs ?? []).map((r) => (r.key === key ? { ...r, ...patch } : r)));
  };
  const add = () => {
    setSaved(false);
    setRows((rs) => [...(rs ?? []), blank(rs?.at(-1)?.currency)]);
  };
  const remove = (key: number) => {
    setSaved(false);
    setRows((rs) => (rs ?? []).filter((r) => r.key !== key));
  };
  const submit = () => {
    const list = rows ?? [];
    const bad = list.map(rowProblem).find((p) => p !== null) ?? null;
    setProblem(bad);
    if (bad) return;
    save.mutate({
      prices: list.map((r) => ({
        model: r.model.trim(),
        promptPerMillion: Number(r.prompt),
        completionPerMillion: Number(r.completion),
        currency: r.currency.trim().toUpperCase(),
      })),
    });
  };
  return { table, rows, change, add, remove, submit, save, problem, saved };
}
