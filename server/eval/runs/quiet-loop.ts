import { performance } from "node:perf_hooks";
import { SHADOW_LIMITS } from "../shadow/schemas";

/** Background work (the intent shadow's jobs) waits for a quiet event loop; see queue.ts. */
export class QuietLoop {
  /** the event loop's utilisation when the shadow last looked */
  private mark = performance.eventLoopUtilization();

  /** A shadow job ended: its own work does not count in the next look. */
  reset(): void {
    this.mark = performance.eventLoopUtilization();
  }

  /**
   * Background work waits for a quiet event loop (see the class comment), at most SHADOW_LIMITS.idleWaitMs. The
   * utilisation is read since the last look or the end of the last shadow job (so its own work does not count) when
   * that was half a window to four windows ago, otherwise over a fresh window.
   */
  async wait(stopping: () => boolean): Promise<void> {
    const until = Date.now() + SHADOW_LIMITS.idleWaitMs;
    for (;;) {
      const since = performance.eventLoopUtilization(this.mark);
      const elapsed = since.idle + since.active;
      this.mark = performance.eventLoopUtilization();
      if (
        elapsed >= SHADOW_LIMITS.idleWindowMs / 2 &&
        elapsed <= 4 * SHADOW_LIMITS.idleWindowMs &&
        since.utilization < SHADOW_LIMITS.idleUtilization
      )
        return;
      if (stopping() || Date.now() >= until) return;
      await new Promise((r) => setTimeout(r, SHADOW_LIMITS.idleWindowMs));
    }
  }
}
