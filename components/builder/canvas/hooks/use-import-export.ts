"use client";

/**
 * Workflow JSON in and out: export downloads exactly the spec `{nodes, edges}` as `<name>.workflow.json`; import
 * replaces the graph as one undoable step (the server's validation then reports what is wrong with it).
 */
import { useReactFlow } from "@xyflow/react";
import { useCallback, useRef } from "react";
import { parseWorkflowJson, toFlow, workflowFileName, type WfEdge, type WfNode } from "../../model/workflow";
import { fitViewOptions } from "../flow-canvas";
import type { CanvasToast } from "./use-canvas-toast";
import type { Graph } from "./use-graph";
import type { NameState } from "./types";

export function useImportExport({
  graph,
  name,
  toast,
}: {
  graph: Pick<Graph, "apply" | "getWorkflow">;
  name: NameState;
  toast: CanvasToast;
}) {
  const { apply, getWorkflow } = graph;
  const nameRef = name.ref;
  const rf = useReactFlow<WfNode, WfEdge>();
  const fileInput = useRef<HTMLInputElement>(null);

  const exportJson = useCallback(() => {
    const text = `${JSON.stringify(getWorkflow(), null, 2)}\n`;
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = workflowFileName(nameRef.current);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }, [getWorkflow, nameRef]);

  const importFile = useCallback(
    async (file: File) => {
      const parsed = parseWorkflowJson(await file.text());
      if (!parsed.ok) {
        toast("error", `${file.name}: ${parsed.error}`);
        return;
      }
      apply(toFlow(parsed.workflow));
      toast(
        "info",
        `Imported ${parsed.workflow.nodes.length} nodes from ${file.name}; checking it now. Undo (Ctrl+Z) brings back the previous graph.`,
      );
      for (const n of parsed.notes) toast("info", n);
      requestAnimationFrame(() => void rf.fitView(fitViewOptions));
    },
    [apply, rf, toast],
  );

  const chooseFile = useCallback(() => fileInput.current?.click(), []);
  return { fileInput, chooseFile, importFile, exportJson };
}
