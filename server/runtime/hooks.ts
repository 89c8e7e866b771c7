/**
 * Listeners of online answers and of the feedback users give them (a layer above registers them at start-up: the
 * evaluation center's intent shadow and online judging),
 * so the runtime never imports the features built on it. Called after the answer is stored, on the next turn of the
 * event loop: a listener never delays or changes what the user gets, and its failure is only logged.
 */
export type OnlineAnswer = { agentId: string; traceId: string; workflowVersionId: string };
type Listener = (answer: OnlineAnswer) => Promise<void> | void;

type Globals = {
  __flowbenchOnlineAnswerListeners?: Set<Listener>;
  __flowbenchFeedbackListeners?: Set<FeedbackListener>;
};
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

/** A user's score recorded on an online answer (POST /api/traces/{id}/feedback): the online loop's low-score leads. */
export type OnlineFeedback = { agentId: string; traceId: string; score: number };
type FeedbackListener = (feedback: OnlineFeedback) => Promise<void> | void;
const feedbackListeners = (): Set<FeedbackListener> => (globals.__flowbenchFeedbackListeners ??= new Set());

/** Registers a feedback listener; returns the function that removes it. */
export function onOnlineFeedback(listener: FeedbackListener): () => void {
  feedbackListeners().add(listener);
  return () => feedbackListeners().delete(listener);
}

/** Like notifyOnlineAnswer: after the feedback is stored, on the next turn, failures only logged. */
export function notifyOnlineFeedback(feedback: OnlineFeedback): void {
  if (!feedbackListeners().size) return;
  setImmediate(() => {
    for (const l of feedbackListeners()) {
      Promise.resolve()
        .then(() => l(feedback))
        .catch((e: unknown) => console.error(`[flowbench] online feedback listener: ${(e as Error).message}`));
    }
  });
}
