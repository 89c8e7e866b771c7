/**
 * Listeners of online answers (a layer above registers them at start-up: the evaluation center's intent shadow),
 * so the runtime never imports the features built on it. Called after the answer is stored, on the next turn of the
 * event loop: a listener never delays or changes what the user gets, and its failure is only logged.
 */
export type OnlineAnswer = { agentId: string; traceId: string; workflowVersionId: string };
type Listener = (answer: OnlineAnswer) => Promise<void> | void;

type Globals = { __flowbenchOnlineAnswerListeners?: Set<Listener> };
const globals = globalThis as typeof globalThis & Globals;
const listeners = (): Set<Listener> => (globals.__flowbenchOnlineAnswerListeners ??= new Set());

/** Registers a listener; returns the function that removes it. */
export function onOnlineAnswer(listener: Listener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

export function notifyOnlineAnswer(answer: OnlineAnswer): void {
  if (!listeners().size) return;
  setImmediate(() => {
    for (const l of listeners()) {
      Promise.resolve()
        .then(() => l(answer))
        .catch((e: unknown) => console.error(`[flowbench] online answer listener: ${(e as Error).message}`));
    }
  });
}
