/**
 * Keyboard-first annotation (pure): which key does what, when keys are ignored, and where the view goes after a
 * verdict. The annotation view binds these to the document; the help dialog (?) lists SHORTCUTS.
 */
export type AnnotationAction = "pass" | "fail" | "comment" | "undo" | "next" | "prev" | "nextOpen" | "raw" | "help";

export const SHORTCUTS: ReadonlyArray<{ keys: string[]; action: AnnotationAction; label: string }> = [
  { keys: ["P"], action: "pass", label: "Pass" },
  { keys: ["F"], action: "fail", label: "Fail (asks for the basis and the attribution)" },
  { keys: ["C"], action: "comment", label: "Comment on the verdict (pass included; no verdict yet: a pass with it)" },
  { keys: ["U"], action: "undo", label: "Undo: take back your last verdict of this session (one step)" },
  { keys: ["J", "↓"], action: "next", label: "Next item" },
  { keys: ["K", "↑"], action: "prev", label: "Previous item" },
  { keys: ["N"], action: "nextOpen", label: "Next item without a verdict (in Spot-check: next one left to check)" },
  { keys: ["R"], action: "raw", label: "Show or hide the raw JSON of the payload" },
  { keys: ["?"], action: "help", label: "This list of shortcuts" },
];

const BY_KEY: Record<string, AnnotationAction> = {
  p: "pass",
  f: "fail",
  c: "comment",
  u: "undo",
  j: "next",
  arrowdown: "next",
  k: "prev",
  arrowup: "prev",
  n: "nextOpen",
  r: "raw",
  "?": "help",
};

export type KeyLike = {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  target?: { tagName?: string; isContentEditable?: boolean; closest?: (selector: string) => unknown } | null;
};

/** The action for a key press, or null: never while typing in a field, in a dialog, or with a modifier (Shift only for ?). */
export function actionFor(e: KeyLike, opts: { dialogOpen?: boolean } = {}): AnnotationAction | null {
  if (opts.dialogOpen || e.ctrlKey || e.metaKey || e.altKey) return null;
  const t = e.target;
  if (t) {
    const tag = (t.tagName ?? "").toUpperCase();
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || t.isContentEditable) return null;
    if (typeof t.closest === "function" && t.closest("[role=dialog],[role=alertdialog],dialog")) return null;
  }
  return BY_KEY[e.key.toLowerCase()] ?? null;
}

/** After a verdict: the next item without one (after the current, then from the top), else null. */
export function nextOpenItem<T extends { id: string; verdict: unknown }>(
  items: readonly T[],
  currentId: string | undefined,
): T | null {
  const i = currentId ? items.findIndex((x) => x.id === currentId) : -1;
  const after = items.slice(i + 1).find((x) => !x.verdict);
  return after ?? items.slice(0, Math.max(0, i)).find((x) => !x.verdict) ?? null;
}

/** J/K: the neighbour in the list (stays at the ends). */
export function neighbour<T extends { id: string }>(
  items: readonly T[],
  currentId: string | undefined,
  step: 1 | -1,
): T | null {
  if (!items.length) return null;
  const i = currentId ? items.findIndex((x) => x.id === currentId) : -1;
  if (i === -1) return items[0]!;
  return items[Math.min(items.length - 1, Math.max(0, i + step))]!;
}

/** The server's window of the queue around one item it placed (an item outside the loaded list: a shared link). */
export type QueueWindow<T> = {
  itemId: string;
  position: number | null;
  firstPosition: number;
  before: readonly T[];
  after: readonly T[];
};

/**
 * J/K and the place of `currentId` inside a window: the window's own item, or one of the items listed around it
 * (moving on needs no new answer from the server; the window of the new item replaces it when it comes). The window's
 * item counts only when it matches the filters (`position` not null). Null when the window does not hold it.
 */
export function windowNav<T extends { id: string }>(
  w: QueueWindow<T>,
  currentId: string,
): { position: number | null; prev: { id: string } | null; next: { id: string } | null } | null {
  if (currentId === w.itemId) return { position: w.position, prev: w.before.at(-1) ?? null, next: w.after[0] ?? null };
  const listed: Array<{ id: string }> = [...w.before, ...(w.position !== null ? [{ id: w.itemId }] : []), ...w.after];
  const i = listed.findIndex((x) => x.id === currentId);
  if (i === -1) return null;
  return { position: w.firstPosition + i, prev: listed[i - 1] ?? null, next: listed[i + 1] ?? null };
}
