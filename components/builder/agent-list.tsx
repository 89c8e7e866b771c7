"use client";

/**
 * /builder: the user's agents with their latest version and its warnings, unsaved local drafts, and the ways
 * to start a new one (blank, a recipe, or a workflow JSON file). Creating opens the canvas on a local draft;
 * the agent exists on the server once its first valid version is saved.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { NODE_CONTRACTS, isNodeType } from "@/server/workflow/contract";
import { RECIPES } from "@/server/workflow/recipes";
import { Badge } from "@/components/ui/badge";
import { Spinner } from "@/components/ui/feedback";
import { ICONS, Icon } from "@/components/ui/icon";
import { JsonFileInput } from "@/components/ui/json-file-input";
import { THead, Table, Td, Th, Tr } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc";
import { listDrafts, newDraftId, removeDraft, writeDraft, type Draft, type DraftKey } from "./model/drafts";
import { parseWorkflowJson, type SpecWorkflow } from "./model/workflow";
import { KIND_STYLES } from "./node-kinds";

function when(value: string | Date): string {
  return new Date(value).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function MiniFlow({ workflow }: { workflow: SpecWorkflow }) {
  return (
    <div className="flex items-center gap-1" aria-hidden="true">
      {workflow.nodes.slice(0, 5).map((n, i) => (
        <span key={n.id} className="flex items-center gap-1">
          {i > 0 && <span className="h-px w-3 bg-slate-300" />}
          <span
            className={`grid h-6 w-6 place-items-center rounded-md ${isNodeType(n.type) ? KIND_STYLES[n.type].tile : "bg-slate-300"} [&_svg]:h-3.5 [&_svg]:w-3.5`}
          >
            {isNodeType(n.type) ? KIND_STYLES[n.type].icon : null}
          </span>
        </span>
      ))}
    </div>
  );
}

type Tile = { href: string; title: string; text: string; flow: SpecWorkflow };

function TileLink({ t }: { t: Tile }) {
  return (
    <Link
      href={t.href}
      data-testid={`create-${t.href.split("=")[1]}`}
      className="group flex flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-xs transition hover:-translate-y-0.5 hover:border-brand-500/40 hover:shadow-md"
    >
      <div className="flex h-7 items-center">
        {t.flow.nodes.length ? (
          <MiniFlow workflow={t.flow} />
        ) : (
          <span className="grid h-6 w-6 place-items-center rounded-md border border-dashed border-slate-300 text-slate-500">
            +
          </span>
        )}
      </div>
      <span className="mt-3 text-sm font-semibold text-slate-900 group-hover:text-brand-700">{t.title}</span>
      <span className="mt-1 line-clamp-3 text-xs leading-relaxed text-slate-500">{t.text}</span>
    </Link>
  );
}

/** Judges are agents of kind judge: they judge the answers of evaluation runs (a set chooses its judge). */
function JudgeTiles() {
  const tiles: Tile[] = [
    {
      href: "/builder/new?from=judge_llm_rubric",
      title: "LLM rubric judge",
      text: "Recipe judge_llm_rubric: a model judges each expected point with your rubric; a code node reads its JSON.",
      flow: RECIPES.judge_llm_rubric.workflow as SpecWorkflow,
    },
    {
      href: "/builder/new?from=judge_python",
      title: "Python judge",
      text: "Recipe judge_python: a scorer in the Python sandbox, no model: replace it with your own rules.",
      flow: RECIPES.judge_python.workflow as SpecWorkflow,
    },
  ];
  return (
    <section aria-labelledby="create-judge-heading">
      <h2 id="create-judge-heading" className="text-sm font-semibold text-slate-900">
        Create a judge{" "}
        <span className="font-normal text-slate-500">
          for evaluation sets: it takes a question, expected points and an answer and gives a verdict
        </span>
      </h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {tiles.map((t) => (
          <TileLink key={t.href} t={t} />
        ))}
      </div>
    </section>
  );
}

function CreateTiles({ onImport }: { onImport: () => void }) {
  const tiles: Tile[] = [
    {
      href: "/builder/new?from=blank",
      title: "Blank canvas",
      text: "Start from nothing and drag in the nodes you need.",
      flow: { nodes: [], edges: [] } as SpecWorkflow,
    },
    {
      href: "/builder/new?from=minimal",
      title: "Minimal assistant",
      text: "Recipe minimal: one required input, answered by a language model.",
      flow: RECIPES.minimal.workflow as SpecWorkflow,
    },
    {
      href: "/builder/new?from=http_call_thin",
      title: "HTTP-backed assistant",
      text: "Recipe http_call_thin: calls your API, then a model answers from the response. Change the url first.",
      flow: RECIPES.http_call_thin.workflow as SpecWorkflow,
    },
  ];
  return (
    <section aria-labelledby="create-heading">
      <h2 id="create-heading" className="text-sm font-semibold text-slate-900">
        Create an agent
      </h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {tiles.map((t) => (
          <TileLink key={t.href} t={t} />
        ))}
        <button
          type="button"
          onClick={onImport}
          className="group flex flex-col rounded-xl border border-dashed border-slate-300 bg-white/60 p-4 text-left transition hover:border-brand-500/50 hover:bg-white"
        >
          <span className="grid h-7 w-7 place-items-center rounded-md bg-slate-100 text-slate-600">
            <Icon d={ICONS.upload} strokeWidth={2} />
          </span>
          <span className="mt-3 text-sm font-semibold text-slate-900 group-hover:text-brand-700">
            Import workflow JSON
          </span>
          <span className="mt-1 text-xs leading-relaxed text-slate-500">
            A file exported from a canvas or written by hand: {"{nodes, edges}"}. It is checked before you save.
          </span>
        </button>
      </div>
    </section>
  );
}

type AgentRow = {
  id: string;
  name: string;
  kind: "agent" | "judge";
  description: string;
  latestVersion: number;
  updatedAt: string | Date;
  latestSummary: { warningCount: number; nodeCount: number; nodeTypes: string[] } | null;
};

export function AgentList({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const agents = useQuery(trpc.builder.agents.list.queryOptions({ limit: 200 }));
  const items: AgentRow[] = agents.data?.items ?? [];
  const [drafts, setDrafts] = useState<{ key: DraftKey; draft: Draft }[]>([]);
  const [importError, setImportError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  useEffect(() => setDrafts(listDrafts()), []);

  const del = useMutation(
    trpc.builder.agents.delete.mutationOptions({
      onSuccess: async (_data, vars) => {
        setConfirming(null);
        removeDraft({ kind: "agent", agentId: vars.id });
        await queryClient.invalidateQueries({ queryKey: trpc.builder.agents.list.queryKey() });
      },
    }),
  );

  const agentDraft = (id: string) => drafts.find((d) => d.key.kind === "agent" && d.key.agentId === id);
  const newDrafts = drafts.filter((d) => d.key.kind === "new");

  const importFile = async (file: File) => {
    setImportError(null);
    const parsed = parseWorkflowJson(await file.text());
    if (!parsed.ok) {
      setImportError(`${file.name}: ${parsed.error}`);
      return;
    }
    const draftId = newDraftId();
    const name =
      file.name
        .replace(/\.workflow\.json$|\.json$/i, "")
        .replace(/[-_]+/g, " ")
        .trim() || "Imported agent";
    const ok = writeDraft(
      { kind: "new", draftId },
      {
        name: name.charAt(0).toUpperCase() + name.slice(1),
        workflow: parsed.workflow,
        origin: `file ${file.name}`,
        fresh: true,
        notices: parsed.notes,
      },
    );
    if (!ok) {
      setImportError("This browser refused to keep the draft (storage full or disabled).");
      return;
    }
    router.push(`/builder/new?draft=${draftId}`);
  };

  return (
    <div className="space-y-8">
      {canWrite && <CreateTiles onImport={() => fileInput.current?.click()} />}
      {canWrite && <JudgeTiles />}
      <JsonFileInput
        inputRef={fileInput}
        label="Workflow JSON file to import"
        testId="import-input"
        onFile={(f) => void importFile(f)}
      />
      {importError && (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700"
          data-testid="import-error"
        >
          {importError}
        </p>
      )}

      {newDrafts.length > 0 && (
        <section aria-labelledby="drafts-heading">
          <h2 id="drafts-heading" className="text-sm font-semibold text-slate-900">
            Unsaved drafts <span className="font-normal text-slate-500">in this browser</span>
          </h2>
          <ul className="mt-3 divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xs">
            {newDrafts.map(({ key, draft }) => {
              const id = key.kind === "new" ? key.draftId : "";
              return (
                <li key={id} className="flex items-center gap-4 px-4 py-3">
                  <MiniFlow workflow={draft.workflow} />
                  <div className="min-w-0 flex-1">
                    <Link href={`/builder/new?draft=${id}`} className="font-medium text-slate-900 hover:text-brand-700">
                      {draft.name || "Untitled agent"}
                    </Link>
                    <p className="text-xs text-slate-500">
                      {draft.workflow.nodes.length} nodes · from {draft.origin ?? "a blank canvas"} · edited{" "}
                      {when(draft.updatedAt)}
                    </p>
                  </div>
                  <Badge tone="warning">draft</Badge>
                  <button
                    type="button"
                    className="rounded-md px-2 py-1 text-xs font-medium text-slate-500 hover:bg-slate-100 hover:text-red-700"
                    onClick={() => {
                      removeDraft(key);
                      setDrafts(listDrafts());
                    }}
                    aria-label={`Discard draft ${draft.name}`}
                  >
                    Discard
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <section aria-labelledby="agents-heading">
        <h2 id="agents-heading" className="text-sm font-semibold text-slate-900">
          Agents
        </h2>
        <Table size="lg" className="mt-3 shadow-xs">
          <THead>
            <tr>
              <Th>Name</Th>
              <Th>Latest version</Th>
              <Th>Status</Th>
              <Th>Updated</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </THead>
          <tbody>
            {agents.isLoading && (
              <tr>
                <Td colSpan={5} className="!py-8 text-center">
                  <Spinner label="Loading agents…" showLabel />
                </Td>
              </tr>
            )}
            {agents.error && (
              <tr>
                <Td colSpan={5} className="!py-8 text-center text-red-600">
                  {agents.error.message}
                </Td>
              </tr>
            )}
            {agents.data?.items.length === 0 && (
              <tr>
                <Td colSpan={5} className="!py-10 text-center text-slate-500">
                  No agents yet.{canWrite ? " Create one above." : ""}
                </Td>
              </tr>
            )}
            {items.map((a) => {
              // Provisioned versions are always valid (the server refuses errors); they may carry warnings.
              const warnings = a.latestSummary?.warningCount ?? null;
              const summary = a.latestSummary;
              const hasDraft = !!agentDraft(a.id);
              return (
                <Tr key={a.id} data-testid={`agent-row-${a.id}`}>
                  <Td>
                    <Link href={`/builder/${a.id}`} className="font-medium text-slate-900 hover:text-brand-700">
                      {a.name}
                    </Link>{" "}
                    <Badge tone={a.kind === "judge" ? "brand" : "neutral"} data-testid={`agent-kind-${a.id}`}>
                      {a.kind}
                    </Badge>
                    <div className="text-xs text-slate-500">
                      {summary
                        ? `${summary.nodeCount} nodes · ${summary.nodeTypes
                            .map((t) => (isNodeType(t) ? NODE_CONTRACTS[t].title : t))
                            .slice(0, 4)
                            .join(", ")}`
                        : a.description}
                    </div>
                  </Td>
                  <Td>
                    <Badge square className="font-mono">
                      v{a.latestVersion}
                    </Badge>
                  </Td>
                  <Td>
                    <div className="flex flex-wrap items-center gap-1.5">
                      {warnings === null ? (
                        <span className="text-xs text-slate-500">…</span>
                      ) : warnings === 0 ? (
                        <Badge tone="success">valid</Badge>
                      ) : (
                        <Badge tone="warning">
                          valid · {warnings} warning{warnings === 1 ? "" : "s"}
                        </Badge>
                      )}
                      {hasDraft && <Badge tone="brand">draft</Badge>}
                    </div>
                  </Td>
                  <Td className="text-slate-500">{when(a.updatedAt)}</Td>
                  <Td className="text-right">
                    {confirming === a.id ? (
                      <span
                        className="inline-flex items-center gap-2"
                        role="group"
                        aria-label={`Confirm deleting ${a.name}`}
                      >
                        <span className="text-xs text-slate-600">Delete with all versions?</span>
                        <button
                          type="button"
                          className="rounded-md px-2 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100"
                          onClick={() => setConfirming(null)}
                        >
                          Cancel
                        </button>
                        <button
                          type="button"
                          className="rounded-md bg-red-600 px-2 py-1 text-xs font-semibold text-white hover:bg-red-700 disabled:opacity-60"
                          disabled={del.isPending}
                          onClick={() => del.mutate({ id: a.id })}
                        >
                          Delete
                        </button>
                      </span>
                    ) : (
                      <span className="inline-flex items-center gap-1">
                        <Link
                          href={`/builder/${a.id}`}
                          className="rounded-md px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50"
                        >
                          Open canvas
                        </Link>
                        {canWrite && (
                          <button
                            type="button"
                            className="rounded-md px-2 py-1 text-xs font-medium text-slate-500 hover:bg-red-50 hover:text-red-700"
                            onClick={() => setConfirming(a.id)}
                            aria-label={`Delete ${a.name}`}
                          >
                            Delete
                          </button>
                        )}
                      </span>
                    )}
                  </Td>
                </Tr>
              );
            })}
          </tbody>
        </Table>
        {del.error && (
          <p role="alert" className="mt-2 rounded-lg border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-700">
            {del.error.message}
          </p>
        )}
      </section>
    </div>
  );
}
