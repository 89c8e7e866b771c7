"use client";

/**
 * Decide what the canvas opens on: a saved agent (its latest version, or this browser's unsaved draft of it),
 * or a new agent on a local draft (blank, a recipe, or an imported file). Nothing is stored on the server
 * until the first valid Save.
 */
import { useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { Spinner } from "@/components/ui/feedback";
import { getRecipe } from "@/server/workflow/recipes";
import { useTRPC } from "@/lib/trpc";
import { WorkflowEditor } from "./canvas/editor";
import { newDraftId, readDraft, removeDraft, type Draft } from "./model/drafts";
import { normalizeWorkflow, workflowKey, type SpecWorkflow } from "./model/workflow";

function Loading({ text }: { text: string }) {
  return (
    <div className="grid h-dvh place-items-center bg-slate-50">
      <Spinner label={text} showLabel />
    </div>
  );
}

function Problem({ title, text }: { title: string; text: string }) {
  return (
    <div className="grid h-dvh place-items-center bg-slate-50">
      <div className="max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm" role="alert">
        <h1 className="text-lg font-semibold">{title}</h1>
        <p className="mt-2 text-sm text-slate-600">{text}</p>
        <a
          href="/builder"
          className="mt-5 inline-block rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          Back to agents
        </a>
      </div>
    </div>
  );
}

export function AgentEditorLoader({ agentId, canWrite }: { agentId: string; canWrite: boolean }) {
  const trpc = useTRPC();
  const created = useSearchParams().get("created") === "1";
  const agent = useQuery({
    ...trpc.builder.agents.get.queryOptions({ id: agentId }),
    staleTime: 0,
    refetchOnMount: "always",
  });
  const [draft, setDraft] = useState<Draft | null | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  useEffect(() => setDraft(readDraft({ kind: "agent", agentId })), [agentId, generation]);

  if (agent.error) return <Problem title="Agent not available" text={agent.error.message} />;
  if (!agent.data || draft === undefined) return <Loading text="Opening the canvas…" />;
  const latest = agent.data.latest;
  const parsed = normalizeWorkflow(latest?.workflow ?? { nodes: [], edges: [] });
  if (!parsed.ok) return <Problem title="This version cannot be drawn" text={parsed.error} />;
  const savedWorkflow: SpecWorkflow = parsed.workflow;
  const useDraft =
    canWrite && draft && workflowKey(draft.workflow) !== workflowKey(savedWorkflow)
      ? draft
      : canWrite && draft && draft.name !== agent.data.name
        ? draft
        : null;
  return (
    <WorkflowEditor
      key={`${agentId}:${generation}`}
      agentId={agentId}
      draftKey={{ kind: "agent", agentId }}
      initialName={useDraft?.name ?? agent.data.name}
      initialWorkflow={useDraft?.workflow ?? savedWorkflow}
      saved={{ name: agent.data.name, workflow: savedWorkflow, version: agent.data.latestVersion }}
      kind={agent.data.kind}
      canWrite={canWrite}
      restoredDraftAt={useDraft?.updatedAt}
      draftBehind={
        useDraft?.baseVersion !== undefined && useDraft.baseVersion < agent.data.latestVersion
          ? { base: useDraft.baseVersion, latest: agent.data.latestVersion }
          : undefined
      }
      onDiscardDraft={() => {
        removeDraft({ kind: "agent", agentId });
        setGeneration((g) => g + 1);
      }}
      notices={[...(created ? [`Agent created: version 1 is saved.`] : []), ...parsed.notes]}
    />
  );
}

const FROM = new Set(["blank", "minimal", "http_call_thin", "judge_llm_rubric", "judge_python"]);
const RECIPE_NAMES: Record<string, string> = {
  minimal: "Minimal assistant",
  http_call_thin: "HTTP-backed assistant",
  judge_llm_rubric: "LLM rubric judge",
  judge_python: "Python judge",
};

export function NewAgentEditorLoader({ canWrite }: { canWrite: boolean }) {
  const params = useSearchParams();
  const router = useRouter();
  const draftId = params.get("draft");
  const from = params.get("from") ?? "blank";
  const [state, setState] = useState<{ draft: Draft | null } | undefined>(undefined);

  useEffect(() => {
    if (!draftId) {
      // Give the draft an id in the URL so a reload finds it again.
      router.replace(`/builder/new?from=${encodeURIComponent(FROM.has(from) ? from : "blank")}&draft=${newDraftId()}`);
      return;
    }
    setState({ draft: readDraft({ kind: "new", draftId }) });
  }, [draftId, from, router]);

  if (!canWrite)
    return (
      <Problem
        title="You cannot create agents"
        text="Your role can view agents but not create them. Ask an administrator for the builder role."
      />
    );
  if (!draftId || !state) return <Loading text="Preparing a new canvas…" />;

  let workflow: SpecWorkflow = { nodes: [], edges: [] };
  let name = "Untitled agent";
  let origin = "a blank canvas";
  const recipe = from !== "blank" ? getRecipe(from) : undefined;
  if (recipe) {
    workflow = recipe.workflow as SpecWorkflow;
    name = RECIPE_NAMES[recipe.name] ?? recipe.title;
    origin = `recipe ${recipe.name}`;
  }
  const draft = state.draft;
  return (
    <WorkflowEditor
      key={draftId}
      agentId={null}
      draftKey={{ kind: "new", draftId }}
      initialName={draft?.name ?? name}
      initialWorkflow={draft?.workflow ?? workflow}
      saved={null}
      canWrite={canWrite}
      restoredDraftAt={draft && !draft.fresh ? draft.updatedAt : undefined}
      notices={draft?.fresh ? draft.notices : undefined}
      origin={draft?.origin ?? origin}
      kind={recipe?.kind ?? "agent"}
    />
  );
}
