"use client";

/**
 * Live validation on the server: 250 ms after the last content edit the workflow goes to `builder.validate`, numbered
 * so that an answer is applied only if no newer edit was made since (a stale answer never wins). Findings go to the
 * keyed stores (each node and edge re-renders only when its own findings change) and to the issues list.
 */
import { useEffect, useRef, useState } from "react";
import { useTRPCClient } from "@/lib/trpc";
import { Sequence, validationView } from "../../model/editor-status";
import { EMPTY_FINDINGS, indexFindings, type IndexedFindings } from "../../model/findings";
import { toWorkflow } from "../../model/workflow";
import type { CanvasStores } from "../stores";
import type { Graph } from "./use-graph";

export const VALIDATE_DEBOUNCE_MS = 250;

export function useLiveValidation(
  graph: Pick<Graph, "rev" | "nodesRef" | "edgesRef">,
  stores: CanvasStores,
  kind: "agent" | "judge" = "agent",
) {
  const { rev, nodesRef, edgesRef } = graph;
  const client = useTRPCClient();
  const [findings, setFindings] = useState<IndexedFindings>(EMPTY_FINDINGS);
  const [validating, setValidating] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [roundTripMs, setRoundTripMs] = useState<number | null>(null);
  const seq = useRef(new Sequence());

  useEffect(() => {
    const mine = seq.current.next();
    setValidating(true);
    const timer = setTimeout(async () => {
      const nodesSnap = nodesRef.current;
      const edgesSnap = edgesRef.current;
      const workflow = toWorkflow(nodesSnap, edgesSnap);
      const t0 = performance.now();
      try {
        const result = await client.builder.validate.mutate({ workflow, kind });
        if (!seq.current.isLatest(mine)) return; // a newer edit is being validated: this answer is stale
        const idx = indexFindings(
          result,
          nodesSnap.map((n) => n.id),
          edgesSnap.map((e) => e.id),
        );
        stores.nodeFindings.replace(idx.byNode);
        stores.edgeFindings.replace(idx.byEdge);
        setFindings(idx);
        setRoundTripMs(performance.now() - t0);
        setError(null);
        setValidating(false);
      } catch (e) {
        if (!seq.current.isLatest(mine)) return;
        setError(e instanceof Error ? e.message : String(e));
        setValidating(false);
      }
    }, VALIDATE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [rev, client, stores, nodesRef, edgesRef, kind]);

  return { findings, validating, error, roundTripMs, view: validationView(findings, validating, error) };
}
