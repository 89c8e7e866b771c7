"use client";

/**
 * Per-node and per-edge overlays (validation findings, test-run steps) kept outside React Flow's node data, so
 * a validation answer re-renders only the nodes whose findings changed and never touches the workflow.
 */
import { createContext, useContext, useSyncExternalStore } from "react";
import type { NodeFindings } from "../model/findings";

type Listener = () => void;

export class KeyedStore<V> {
  private values = new Map<string, V>();
  private listeners = new Map<string, Set<Listener>>();

  constructor(private readonly same: (a: V | undefined, b: V | undefined) => boolean = Object.is) {}

  get = (key: string): V | undefined => this.values.get(key);

  subscribe(key: string, listener: Listener): () => void {
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /** Replaces all values, notifying only keys whose value changed. */
  replace(next: ReadonlyMap<string, V>): void {
    const changed: string[] = [];
    for (const [k, v] of next) {
      const prev = this.values.get(k);
      if (!this.same(prev, v)) {
        this.values.set(k, v);
        changed.push(k);
      }
    }
    for (const k of [...this.values.keys()]) {
      if (!next.has(k)) {
        this.values.delete(k);
        changed.push(k);
      }
    }
    for (const k of changed) this.listeners.get(k)?.forEach((l) => l());
  }
}

export interface RunStep {
  status: "succeeded" | "failed" | "skipped" | "running";
  durationMs?: number;
  error?: string;
}

export interface CanvasStores {
  nodeFindings: KeyedStore<NodeFindings>;
  edgeFindings: KeyedStore<"error" | "warning">;
  runSteps: KeyedStore<RunStep>;
}

export function createStores(
  same: (a: NodeFindings | undefined, b: NodeFindings | undefined) => boolean,
): CanvasStores {
  return {
    nodeFindings: new KeyedStore<NodeFindings>(same),
    edgeFindings: new KeyedStore<"error" | "warning">(),
    runSteps: new KeyedStore<RunStep>(
      (a, b) =>
        a === b || (!!a && !!b && a.status === b.status && a.durationMs === b.durationMs && a.error === b.error),
    ),
  };
}

export const StoresContext = createContext<CanvasStores | null>(null);

function useStores(): CanvasStores {
  const s = useContext(StoresContext);
  if (!s) throw new Error("StoresContext missing");
  return s;
}

function useKeyed<V>(store: KeyedStore<V>, key: string): V | undefined {
  return useSyncExternalStore(
    (l) => store.subscribe(key, l),
    () => store.get(key),
    () => store.get(key),
  );
}

export function useNodeFindings(id: string): NodeFindings | undefined {
  return useKeyed(useStores().nodeFindings, id);
}

export function useEdgeFinding(id: string): "error" | "warning" | undefined {
  return useKeyed(useStores().edgeFindings, id);
}

export function useRunStep(id: string): RunStep | undefined {
  return useKeyed(useStores().runSteps, id);
}
