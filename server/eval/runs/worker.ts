import type { Db } from "../../db/client";
import { databaseTarget } from "../../db/client";
import type { DatabaseTarget } from "../../db/url";
import { EvalQueue, globals } from "./queue";

// ---------------------------------------------------------------- process singleton

/** Makes `queue` the process's queue (the server's worker, or a test's). */
export function registerEvalQueue(queue: EvalQueue | undefined): void {
  globals.__flowbenchEvalQueue = queue;
  globals.__flowbenchEvalQueueStarting = undefined;
}

/** The process's queue; when none was started (a process without the worker) a send-only one is started. */
export async function getEvalQueue(db: Db): Promise<EvalQueue> {
  if (globals.__flowbenchEvalQueue) return globals.__flowbenchEvalQueue;
  globals.__flowbenchEvalQueueStarting ??= EvalQueue.start({ db, target: databaseTarget(), worker: false }).then(
    (q) => {
      globals.__flowbenchEvalQueue = q;
      return q;
    },
  );
  return globals.__flowbenchEvalQueueStarting;
}

/** Server start-up: the worker, in the server process, after migrations. */
export async function startEvalWorker(db: Db, target: DatabaseTarget = databaseTarget()): Promise<EvalQueue> {
  const q = await EvalQueue.start({ db, target, worker: true });
  registerEvalQueue(q);
  return q;
}
