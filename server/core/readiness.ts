/**
 * Readiness, kept apart from liveness: the process answers (`/api/health`, liveness) before it may take traffic;
 * `/api/health/ready` is 200 only once every start-up step is done (migrations applied, access bootstrapped, the sweep of
 * interrupted traces, the evaluation worker started, the sample agent seeded where FLOWBENCH_SEED_SAMPLE_AGENT is on). A load balancer routes by readiness and restarts by liveness.
 * Kept on globalThis: the start-up code (instrumentation) and the route handlers are separate bundles in one process.
 */
export type Readiness = { state: "starting" | "ready" | "failed"; since: string; detail?: string };

type Globals = { __flowbenchReadiness?: Readiness };
const globals = globalThis as typeof globalThis & Globals;

export function setReadiness(state: Readiness["state"], detail?: string): void {
  globals.__flowbenchReadiness = { state, since: new Date().toISOString(), ...(detail ? { detail } : {}) };
}

/** "starting" until start-up says otherwise (a process whose start-up never ran is not ready). */
export function readiness(): Readiness {
  return globals.__flowbenchReadiness ?? { state: "starting", since: new Date(0).toISOString() };
}
