/**
 * A worker loop's idle wait: `sleep(ms)` waits up to `ms`, and `wake()` ends the wait at once (new work was announced,
 * a slot was freed). A wake with no sleep running is dropped: the loop looks for work before it sleeps again.
 */
export class IdleWait {
  private wakeFn: (() => void) | null = null;

  wake(): void {
    const f = this.wakeFn;
    this.wakeFn = null;
    f?.();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.wakeFn = null;
        resolve();
      }, ms);
      this.wakeFn = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }
}
