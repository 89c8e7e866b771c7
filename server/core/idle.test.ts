import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IdleWait, QUIET_AFTER_MS, QUIET_FACTOR } from "./idle";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Whether a sleep started now has ended after `ms` of (fake) time. */
async function endedAfter(idle: IdleWait, sleepMs: number, ms: number): Promise<boolean> {
  let done = false;
  void idle.sleep(sleepMs).then(() => (done = true));
  await vi.advanceTimersByTimeAsync(ms);
  return done;
}

describe("IdleWait", () => {
  it("waits the caller's interval while the loop has been busy in the last QUIET_AFTER_MS", async () => {
    const idle = new IdleWait();
    expect(idle.interval(500)).toBe(500);
    expect(await endedAfter(idle, 500, 499)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    vi.advanceTimersByTime(QUIET_AFTER_MS - 2_000);
    expect(idle.interval(500)).toBe(500);
  });

  it("polls QUIET_FACTOR times less often once quiet; busy() and wake() bring the interval back at once", async () => {
    const idle = new IdleWait();
    vi.advanceTimersByTime(QUIET_AFTER_MS);
    expect(idle.interval(500)).toBe(500 * QUIET_FACTOR);
    expect(await endedAfter(idle, 500, 500)).toBe(false);
    await vi.advanceTimersByTimeAsync(500 * QUIET_FACTOR);

    idle.busy();
    expect(idle.interval(500)).toBe(500);

    vi.advanceTimersByTime(QUIET_AFTER_MS);
    expect(idle.interval(500)).toBe(500 * QUIET_FACTOR);
    let done = false;
    void idle.sleep(500).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toBe(false);
    idle.wake(); // work announced in this process: the long wait ends now, and the next is short again
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    expect(idle.interval(500)).toBe(500);
  });

  it("a wake with no sleep running is dropped, but still counts as work", async () => {
    const idle = new IdleWait();
    vi.advanceTimersByTime(QUIET_AFTER_MS);
    idle.wake();
    expect(await endedAfter(idle, 500, 499)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(idle.interval(500)).toBe(500);
  });
});
