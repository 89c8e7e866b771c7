/**
 * Which agents the online worker watches (./watch.ts): an agent with an enabled judging rule or an enabled alert rule,
 * or any agent while an enabled webhook endpoint subscribes to `lead.created`. Cached per instance for
 * WATCH_TTL_MS; a change made on this instance applies at once (`watchChanged`).
 */
export const WATCH_TTL_MS = 2_000;

type Globals = { __flowbenchOnlineWatch?: Map<string, { at: number; watched: boolean }> };
export const watchGlobals = globalThis as typeof globalThis & Globals;

export function watchChanged(agentId?: string): void {
  if (agentId === undefined) watchGlobals.__flowbenchOnlineWatch?.clear();
  else watchGlobals.__flowbenchOnlineWatch?.delete(agentId);
}
