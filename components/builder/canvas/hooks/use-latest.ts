"use client";

/** A ref that always holds the latest value of this render: stable callbacks read current state through it. */
import { useRef, type RefObject } from "react";

export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
