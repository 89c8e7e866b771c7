/**
 * A worker loop's idle wait: `sleep(ms)` waits up to `ms`, and `wake()` ends the wait at once (new work was announced,
 * a slot was freed). A wake with no sleep running is dropped: the loop looks for work before it sleeps again.
 *
 * A loop that has had nothing to do for QUIET_AFTER_MS polls QUIET_FACTOR times less often: an idle instance's polls
 * were most of what it spent (three workers at 500 ms: 5 % of a core on the embedded database, 2 % on PostgreSQL).
 * `busy()` (the loop found or runs work) and `wake()` bring the caller's own interval back at once. Work announced in
 * this process always wakes the loop; only another instance's work waits up to QUIET_FACTOR x `ms` to be noticed.
 */
export const QUIET_AFTER_MS = 10_000;
export const QUIET_FACTOR = 4;

export class IdleWait {
  private wakeFn: (() => void) | null = null;
  private lastBusy = Date.now();

  /** The loop found work, or still runs some: it polls at its own interval for the next QUIET_AFTER_MS. */
  busy(): void {
    this.lastBusy = Date.now();
  }

  wake(): void {
    this.lastBusy = Date.now();
    const f = this.wakeFn;
    this.wakeFn = null;
    f?.();
  }

  /** How long `sleep(ms)` waits now, unless woken. */
  interval(ms: number): number {
    return Date.now() - this.lastBusy >= QUIET_AFTER_MS ? ms * QUIET_FACTOR : ms;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.wakeFn = null;
        resolve();
      }, this.interval(ms));
      this.wakeFn = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }
}
