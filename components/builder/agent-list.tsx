"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/lib/trpc";

function when(value: string | Date): string {
  return new Date(value).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** The user's agents; create one from a built-in recipe. (The canvas arrives with the visual builder.) */
export function AgentList({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const agents = useQuery(trpc.builder.agents.list.queryOptions({}));
  const recipes = useQuery(trpc.builder.recipes.queryOptions());
  const [name, setName] = useState("");
  const [recipe, setRecipe] = useState("minimal");
  const create = useMutation(
    trpc.builder.agents.create.mutationOptions({
      onSuccess: async () => {
        setName("");
        await queryClient.invalidateQueries({ queryKey: trpc.builder.agents.list.queryKey() });
      },
    }),
  );

  return (
    <div className="space-y-6">
      {canWrite && (
        <form
          className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          onSubmit={(e) => {
            e.preventDefault();
            const r = recipes.data?.find((x) => x.name === recipe);
            if (r && name.trim()) create.mutate({ name: name.trim(), workflow: r.workflow, note: `from recipe ${r.name}` });
          }}
        >
          <label className="flex-1 text-sm font-medium text-slate-700">
            New agent name
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={120}
              required
              className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none"
              placeholder="e.g. Meal recommendation"
            />
          </label>
          <label className="text-sm font-medium text-slate-700">
            Start from
            <select
              value={recipe}
              onChange={(e) => setRecipe(e.target.value)}
              className="mt-1 block rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
            >
              {(recipes.data ?? []).map((r) => (
                <option key={r.name} value={r.name}>
                  {r.title}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" disabled={create.isPending || !name.trim()}>
            {create.isPending ? "Creating…" : "Create agent"}
          </Button>
          {create.error && (
            <p role="alert" className="w-full text-sm text-red-700">
              {create.error.message}
            </p>
          )}
        </form>
      )}
      <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-4 py-3 font-medium">Name</th>
              <th className="px-4 py-3 font-medium">Latest version</th>
              <th className="px-4 py-3 font-medium">Updated</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {agents.isLoading && (
              <tr>
                <td colSpan={3} className="px-4 py-8 text-center text-slate-500">
                  Loading agents…
                </td>
              </tr>
            )}
            {agents.data?.items.length === 0 && (
              <tr>
                <td colSpan={3} className="px-4 py-10 text-center text-slate-500">
                  No agents yet.{canWrite ? " Create one from a recipe above." : ""}
                </td>
              </tr>
            )}
            {agents.data?.items.map((a) => (
              <tr key={a.id} className="hover:bg-slate-50">
                <td className="px-4 py-3">
                  <div className="font-medium">{a.name}</div>
                  {a.description && <div className="text-xs text-slate-500">{a.description}</div>}
                </td>
                <td className="px-4 py-3">
                  <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">v{a.latestVersion} · valid</span>
                </td>
                <td className="px-4 py-3 text-slate-500">{when(a.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
