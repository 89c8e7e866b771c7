"use client";

/**
 * Which nodes are selected (from React Flow's selection events) and what the side panel needs for a single
 * selected node: its data, the `{{` completion options and the branch targets. Options and targets depend on the
 * workflow's content only, so moving nodes or changing the selection flags of others does not recompute them.
 */
import type { OnSelectionChangeParams } from "@xyflow/react";
import { useCallback, useMemo, useState } from "react";
import { templateOptions } from "../../config-form/completion";
import { toWorkflow, type WfEdge, type WfNode } from "../../model/workflow";
import type { Graph } from "./use-graph";

export function useSelection(graph: Pick<Graph, "nodes" | "nodesRef" | "edgesRef" | "rev">) {
  const { nodes, nodesRef, edgesRef, rev } = graph;
  const [selectedIds, setSelectedIds] = useState<string[]>([]);

  const onSelectionChange = useCallback(({ nodes: sel }: OnSelectionChangeParams<WfNode, WfEdge>) => {
    const ids = sel.map((n) => n.id);
    setSelectedIds((prev) => (prev.length === ids.length && prev.every((p, i) => p === ids[i]) ? prev : ids));
  }, []);

  /** A renamed node stays selected under its new id. */
  const renameSelected = useCallback(
    (from: string, to: string) => setSelectedIds((ids) => ids.map((id) => (id === from ? to : id))),
    [],
  );

  const selectedId = selectedIds.length === 1 ? selectedIds[0] : undefined;
  const selectedData = selectedId ? nodes.find((n) => n.id === selectedId)?.data : undefined;
  const options = useMemo(
    () => (selectedId ? templateOptions(toWorkflow(nodesRef.current, edgesRef.current), selectedId) : []),
    [selectedId, rev],
  ); // eslint-disable-line react-hooks/exhaustive-deps
  const targets = useMemo(
    () =>
      selectedId ? [...new Set(edgesRef.current.filter((e) => e.source === selectedId).map((e) => e.target))] : [],
    [selectedId, rev],
  ); // eslint-disable-line react-hooks/exhaustive-deps

  return { selectedIds, selectedId, selectedData, options, targets, onSelectionChange, renameSelected };
}
