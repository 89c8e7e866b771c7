"use client";

import { useEffect, useRef, useState, type InputHTMLAttributes } from "react";
import { cn } from "./cn";
import { inputClass } from "./field";

/**
 * A search or filter box whose value is committed after a pause in typing (or at once with Enter): the caller keeps
 * the committed value (often in the URL) and is not called on every key. A committed value changed from outside
 * (back button, a link) shows in the box. An empty box commits `undefined`.
 */
export function SearchInput({
  value,
  onCommit,
  delay = 300,
  className,
  ...rest
}: { value: string | undefined; onCommit: (value: string | undefined) => void; delay?: number } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "value" | "onChange" | "defaultValue"
>) {
  const [text, setText] = useState(value ?? "");
  const committed = useRef(value);
  const commit = useRef(onCommit);
  commit.current = onCommit;
  useEffect(() => {
    committed.current = value;
    setText((t) => ((t.trim() || undefined) === value ? t : (value ?? "")));
  }, [value]);
  useEffect(() => {
    const next = text.trim() || undefined;
    if (next === committed.current) return;
    const t = setTimeout(() => {
      committed.current = next;
      commit.current(next);
    }, delay);
    return () => clearTimeout(t);
  }, [text, delay]);
  return (
    <input
      type="search"
      {...rest}
      className={cn(inputClass, className)}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        rest.onKeyDown?.(e);
        if (e.key !== "Enter" || e.defaultPrevented) return;
        const next = text.trim() || undefined;
        if (next !== committed.current) {
          committed.current = next;
          commit.current(next);
        }
      }}
    />
  );
}
