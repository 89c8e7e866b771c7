"use client";

import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { inlineInputClass } from "@/components/ui/field";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useModelPrices } from "./use-model-prices";

/**
 * The model price table: per model as traces record it, the price per million prompt and completion tokens and a
 * currency. Reports, usage and the annotation view turn tokens into money with it; a model without a price is named
 * there ("no price for gpt-x"), never shown as 0. While FLOWBENCH_MODEL_PRICES is set, the table is read-only.
 */
export function ModelPricesPanel() {
  const p = useModelPrices();
  const fromEnv = p.table.data?.source === "env";
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    p.submit();
  };
  return (
    <section
      aria-labelledby="prices-title"
      className="rounded-xl border border-slate-200 bg-white shadow-sm xl:col-span-2"
    >
      <div className="border-b border-slate-200 px-5 py-4">
        <h2 id="prices-title" className="font-semibold">
          Model prices
        </h2>
        <p className="text-sm text-slate-500">
          Turns tokens into money in run reports, usage and the annotation view. Name each model as traces record it
          (e.g. <code className="rounded bg-slate-100 px-1 text-slate-700">gpt-4o-mini</code>, or{" "}
          <code className="rounded bg-slate-100 px-1 text-slate-700">offline</code>); prices are per million tokens.
        </p>
      </div>
      {p.table.error ? (
        <div className="p-5">
          <ErrorState error={p.table.error} onRetry={() => p.table.refetch()} title="The prices could not be loaded" />
        </div>
      ) : !p.rows ? (
        <LoadingRows rows={2} label="Loading model prices" />
      ) : (
        <form onSubmit={onSubmit} aria-label="Model prices">
          {fromEnv && (
            <p role="note" className="m-5 rounded-lg border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
              These prices come from <code>FLOWBENCH_MODEL_PRICES</code>, which wins while it is set: unset it to edit
              them here.
            </p>
          )}
          {p.rows.length === 0 ? (
            <p className="px-5 py-6 text-center text-sm text-slate-500">
              No prices yet: reports show token counts and say which models have no price.
            </p>
          ) : (
            <Table caption="Model prices" className="rounded-none border-0">
              <THead>
                <tr>
                  <Th>Model</Th>
                  <Th>Prompt, per million</Th>
                  <Th>Completion, per million</Th>
                  <Th>Currency</Th>
                  <Th className="text-right">
                    <span className="sr-only">Remove</span>
                  </Th>
                </tr>
              </THead>
              <tbody>
                {p.rows.map((r, i) => (
                  <Tr key={r.key}>
                    <Td>
                      <input
                        value={r.model}
                        onChange={(e) => p.change(r.key, { model: e.target.value })}
                        aria-label={`Model ${i + 1}`}
                        placeholder="gpt-4o-mini"
                        maxLength={200}
                        disabled={fromEnv}
                        className={`w-full min-w-40 ${inlineInputClass}`}
                      />
                    </Td>
                    <Td>
                      <input
                        value={r.prompt}
                        onChange={(e) => p.change(r.key, { prompt: e.target.value })}
                        aria-label={`Prompt price per million tokens, ${r.model || `row ${i + 1}`}`}
                        inputMode="decimal"
                        placeholder="0.15"
                        disabled={fromEnv}
                        className={`w-28 ${inlineInputClass}`}
                      />
                    </Td>
                    <Td>
                      <input
                        value={r.completion}
                        onChange={(e) => p.change(r.key, { completion: e.target.value })}
                        aria-label={`Completion price per million tokens, ${r.model || `row ${i + 1}`}`}
                        inputMode="decimal"
                        placeholder="0.60"
                        disabled={fromEnv}
                        className={`w-28 ${inlineInputClass}`}
                      />
                    </Td>
                    <Td>
                      <input
                        value={r.currency}
                        onChange={(e) => p.change(r.key, { currency: e.target.value })}
                        aria-label={`Currency, ${r.model || `row ${i + 1}`}`}
                        maxLength={3}
                        disabled={fromEnv}
                        className={`w-20 uppercase ${inlineInputClass}`}
                      />
                    </Td>
                    <Td className="text-right">
                      {!fromEnv && (
                        <Button
                          type="button"
                          size="sm"
                          variant="ghost"
                          onClick={() => p.remove(r.key)}
                          aria-label={`Remove ${r.model || `row ${i + 1}`}`}
                        >
                          Remove
                        </Button>
                      )}
                    </Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
          )}
          {!fromEnv && (
            <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 bg-slate-50 px-5 py-4">
              <Button type="button" variant="secondary" onClick={p.add}>
                Add a model
              </Button>
              <Button type="submit" disabled={p.save.isPending}>
                {p.save.isPending ? "Saving…" : "Save prices"}
              </Button>
              {p.saved && !p.save.isPending && (
                <p role="status" className="text-sm text-emerald-700">
                  Saved.
                </p>
              )}
              {(p.problem || p.save.error) && (
                <p role="alert" className="w-full text-sm text-red-700">
                  {p.problem ?? p.save.error?.message}
                </p>
              )}
            </div>
          )}
        </form>
      )}
    </section>
  );
}
