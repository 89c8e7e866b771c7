"use client";

import { type RefObject, useEffect, useLayoutEffect } from "react";

/** Where the page keys must stay the element's own: typing, pressing a control, a dialog. */
const OWN_KEYS =
  "input, textarea, select, button, summary, [contenteditable], dialog, [role=button], [role=tab], [role=checkbox], [role=radio], [role=switch], [role=slider], [role=spinbutton], [role=combobox], [role=listbox], [role=option], [role=menuitem], [role=textbox], [role=dialog], [role=alertdialog]";

/** The pane scrolls by itself (from `lg` up); below that the page scrolls and the browser's keys do the work. */
const scrollsItself = (el: HTMLElement) => /(auto|scroll)/.test(getComputedStyle(el).overflowY);

/**
 * The annotation item pane, read from top to bottom (use-annotation-keys.ts has the verdict keys; this is only
 * scrolling and size):
 *
 * - every item opens at its top: when `itemId` changes the pane scrolls to 0 (and the page, if it was scrolled past
 *   the pane's top, back to it), so the question and the answer are what one sees first;
 * - PageDown / PageUp, Space / Shift+Space, Home and End scroll the pane while focus is in the queue or the pane (or
 *   nowhere), not the window and not the queue's list; typing, buttons and dialogs keep their keys;
 * - the queue and the pane reach exactly to the bottom of the window (`--pane-h` on `area`, measured from where the
 *   area starts), so the verdict bar at the pane's bottom is always on screen; never lower than `minHeight`.
 */
export function usePaneScroll(
  area: RefObject<HTMLElement | null>,
  pane: RefObject<HTMLElement | null>,
  itemId: string | undefined,
  { bottomGap = 24, minHeight = 352 }: { bottomGap?: number; minHeight?: number } = {},
) {
  useLayoutEffect(() => {
    const p = pane.current;
    if (!p || !itemId) return;
    p.scrollTop = 0;
    const top = p.getBoundingClientRect().top;
    if (top < 0) window.scrollBy(0, top - 8);
  }, [itemId, pane]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const step = { PageDown: 1, PageUp: -1, " ": e.shiftKey ? -1 : 1, Home: -Infinity, End: Infinity }[e.key];
      const p = pane.current;
      const a = area.current;
      if (step === undefined || !p || !a || !scrollsItself(p)) return;
      if (document.querySelector("dialog[open]")) return;
      const t = e.target instanceof Element ? e.target : null;
      // focus on nothing in particular: the page, or a box around the queue and the pane (the tab panel)
      const nowhere = !t || t.contains(a);
      if (!nowhere && (!a.contains(t) || t.closest(OWN_KEYS))) return;
      e.preventDefault();
      if (step === -Infinity) p.scrollTo({ top: 0 });
      else if (step === Infinity) p.scrollTo({ top: p.scrollHeight });
      else p.scrollBy({ top: step * Math.max(40, p.clientHeight - 48) });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [area, pane]);

  useEffect(() => {
    const a = area.current;
    if (!a) return;
    const measure = () => {
      const top = a.getBoundingClientRect().top + window.scrollY;
      const h = `${Math.max(minHeight, Math.floor(window.innerHeight - top - bottomGap))}px`;
      if (a.style.getPropertyValue("--pane-h") !== h) a.style.setProperty("--pane-h", h);
    };
    measure();
    // what stands above the area (notes, the progress line) changes its start: measured again whenever it moves
    const watch = new ResizeObserver(measure);
    for (let el = a.previousElementSibling; el; el = el.previousElementSibling) watch.observe(el);
    if (a.parentElement) watch.observe(a.parentElement);
    watch.observe(document.body);
    window.addEventListener("resize", measure);
    return () => {
      watch.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [area, bottomGap, minHeight]);
}
