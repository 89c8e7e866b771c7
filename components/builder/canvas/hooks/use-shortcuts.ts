"use client";

/**
 * Canvas shortcuts on the window: Ctrl/Cmd+S saves, Z/Shift+Z/Y undo and redo (also inside code fields, which have
 * no history of their own), C/V copy and paste nodes. Text fields keep their own keys; keys pressed in a dialog
 * never arrive here (the dialog stops them). Delete/Backspace and arrow keys are React Flow's.
 */
import { useEffect } from "react";
import { canvasShortcut } from "../../model/keys";
import type { CanvasToast } from "./use-canvas-toast";
import { useLatest } from "./use-latest";

function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !!target.closest(".cm-editor");
}

function inCodeField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && !!target.closest(".cm-editor");
}

export function useCanvasShortcuts({
  save,
  undo,
  redo,
  copy,
  paste,
  previewOpen,
  toast,
}: {
  save: () => Promise<void>;
  undo: () => void;
  redo: () => void;
  copy: () => number;
  paste: () => boolean;
  previewOpen: boolean;
  toast: CanvasToast;
}): void {
  // Save changes identity on every render (it closes over the save state); the listener reads the latest one.
  const saveRef = useLatest(save);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = canvasShortcut(e, {
        previewOpen,
        inTextField: inTextField(e.target),
        inCodeField: inCodeField(e.target),
      });
      if (action === "save") {
        e.preventDefault();
        void saveRef.current();
      } else if (action === "undo" || action === "redo") {
        e.preventDefault();
        (action === "undo" ? undo : redo)();
      } else if (action === "copy") {
        if (window.getSelection()?.toString()) return; // copying text on the page
        const n = copy();
        if (n === 0) return;
        e.preventDefault();
        toast("info", `Copied ${n} node${n === 1 ? "" : "s"}.`);
      } else if (action === "paste") {
        if (paste()) e.preventDefault();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [saveRef, undo, redo, copy, paste, previewOpen, toast]);
}
