import type { Workflow } from "../../workflow";

type Globals = {
  __flowbenchShadowRunning?: number;
  __flowbenchShadowCandidates?: Map<string, Workflow>;
  __flowbenchShadowSampling?: Map<string, { at: number; enabled: boolean; sampleRate: number }>;
  __flowbenchShadowBuffer?: {
    jobs: Array<{ queue: ShadowQueue; job: ShadowJob }>;
    timer: ReturnType<typeof setTimeout> | null;
  };
};
export const globals = globalThis as typeof globalThis & Globals;
export type ShadowJob = { kind: "shadow"; runId: string; itemId: string };
export type ShadowQueue = { enqueue(jobs: ShadowJob[]): Promise<void> };
/** Forget an agent's cached sampling (its configuration changed in this process). */
export function samplingChanged(agentId: string): void {
  globals.__flowbenchShadowSampling?.delete(agentId);
}
