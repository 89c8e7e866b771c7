/**
 * Undo/redo over immutable snapshots, bounded. A change that continues the previous one (same coalesce key
 * within `coalesceMs`, e.g. typing in one field) does not add a new step.
 */
export class History<T> {
  private past: T[] = [];
  private future: T[] = [];
  private lastKey: string | null = null;
  private lastAt = 0;

  constructor(
    private readonly limit = 100,
    private readonly coalesceMs = 1000,
  ) {}

  /**
   * Records `before` (the state just before a change). With a `coalesceKey` equal to the previous record's
   * and close enough in time, nothing is recorded: the earlier snapshot already covers it.
   */
  record(before: T, coalesceKey?: string, now = Date.now()): void {
    if (coalesceKey !== undefined && coalesceKey === this.lastKey && now - this.lastAt < this.coalesceMs) {
      this.lastAt = now;
      return;
    }
    this.past.push(before);
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
    this.lastKey = coalesceKey ?? null;
    this.lastAt = now;
  }

  /** The state to go back to, given the current one (which becomes redoable). */
  undo(current: T): T | undefined {
    const previous = this.past.pop();
    if (previous === undefined) return undefined;
    this.future.push(current);
    this.lastKey = null;
    return previous;
  }

  redo(current: T): T | undefined {
    const next = this.future.pop();
    if (next === undefined) return undefined;
    this.past.push(current);
    this.lastKey = null;
    return next;
  }

  /** Ends coalescing, so the next change is a new step even with the same key. */
  seal(): void {
    this.lastKey = null;
  }

  clear(): void {
    this.past = [];
    this.future = [];
    this.lastKey = null;
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }

  get size(): number {
    return this.past.length;
  }
}
