"use client";

import { useCallback, useState } from "react";

/** Cursor pagination state for a list: the cursor of the page shown, the page number, and moving back and forth. */
export function useCursorPages() {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const page = cursors.length - 1;
  return {
    cursor: cursors.at(-1),
    page,
    next: useCallback(
      (nextCursor: string | null | undefined) => nextCursor && setCursors((c) => [...c, nextCursor]),
      [],
    ),
    prev: useCallback(() => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)), []),
    reset: useCallback(() => setCursors([undefined]), []),
  };
}
