/** Keyboard and navigation decisions of the canvas as pure functions (the hooks only wire them to the DOM). */

export type CanvasShortcut = "save" | "undo" | "redo" | "copy" | "paste";

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/**
 * Which canvas shortcut a key press is. Ctrl/Cmd+S saves from anywhere; the others wait while a version preview
 * is open and leave text fields alone, except undo/redo in a code field (CodeMirror has no history of its own).
 */
export function canvasShortcut(
  e: KeyLike,
  ctx: { previewOpen: boolean; inTextField: boolean; inCodeField: boolean },
): CanvasShortcut | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const k = e.key.toLowerCase();
  if (k === "s") return "save";
  if (ctx.previewOpen) return null;
  const history = k === "z" || k === "y";
  if (ctx.inTextField && !(history && ctx.inCodeField)) return null;
  if (k === "z") return e.shiftKey ? "redo" : "undo";
  if (k === "y") return "redo";
  if (k === "c") return "copy";
  if (k === "v") return "paste";
  return null;
}

/**
 * The in-app page a click on a link would leave the canvas for, or null when the click stays: the same page,
 * another site (the browser's own before-unload prompt covers that), a new tab or window, a download (the
 * canvas' own export is one), or a click already handled.
 */
export function leavingTo(
  link: { href: string; target: string; download: boolean },
  click: { defaultPrevented: boolean; button: number } & Omit<KeyLike, "key">,
  here: string,
): URL | null {
  if (click.defaultPrevented || click.button !== 0 || click.ctrlKey || click.metaKey || click.shiftKey || click.altKey)
    return null;
  if (link.download || (link.target && link.target !== "_self")) return null;
  const url = new URL(link.href, here);
  const current = new URL(here);
  if (url.protocol !== current.protocol || url.origin !== current.origin || url.pathname === current.pathname)
    return null;
  return url;
}
