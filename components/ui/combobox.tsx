"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { cn } from "./cn";
import { inputClass } from "./field";

export type ComboboxOption = { value: string; label: string; hint?: ReactNode };

/**
 * A select you can type into (ARIA 1.2 combobox with a list popup): closed, it shows the chosen option's label;
 * typing or ArrowDown opens the list, typing filters it (the caller filters, e.g. on the server: `onQuery` is called
 * after a pause), ArrowUp/ArrowDown move, Enter chooses, Escape closes and keeps the choice. For lists too long for
 * a `<select>`. Label it with a `<label htmlFor={id}>`.
 */
export function Combobox({
  id,
  value,
  selectedLabel,
  options,
  onChange,
  onQuery,
  loading = false,
  disabled = false,
  placeholder,
  empty = "Nothing matches",
  footer,
  className,
  delay = 200,
}: {
  id: string;
  value: string | undefined;
  /** what the closed box shows (the chosen option may not be among `options`) */
  selectedLabel: string;
  options: ComboboxOption[];
  onChange: (value: string) => void;
  /** the typed text, after a pause ("" when the list opens) */
  onQuery: (query: string) => void;
  loading?: boolean;
  disabled?: boolean;
  placeholder?: string;
  empty?: ReactNode;
  /** under the list: e.g. "20 of 312: type to narrow" */
  footer?: ReactNode;
  className?: string;
  delay?: number;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const queryCb = useRef(onQuery);
  queryCb.current = onQuery;
  useEffect(() => {
    if (!open) return;
    const t = setTimeout(() => queryCb.current(query.trim()), delay);
    return () => clearTimeout(t);
  }, [query, open, delay]);
  useEffect(() => setActive(0), [options]);

  const show = () => {
    if (open || disabled) return;
    setQuery("");
    setActive(
      Math.max(
        0,
        options.findIndex((o) => o.value === value),
      ),
    );
    setOpen(true);
  };
  const close = () => setOpen(false);
  const choose = (o: ComboboxOption | undefined) => {
    if (!o) return;
    setOpen(false);
    if (o.value !== value) onChange(o.value);
  };
  const optionId = (i: number) => `${listId}-o${i}`;
  const listed = open && options.length > 0;

  return (
    <div className={cn("relative", className)}>
      <input
        ref={input}
        id={id}
        role="combobox"
        aria-expanded={listed}
        aria-controls={listed ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={listed && options[active] ? optionId(active) : undefined}
        autoComplete="off"
        disabled={disabled}
        className={cn(inputClass, "pr-8")}
        placeholder={open ? selectedLabel || placeholder : placeholder}
        value={open ? query : selectedLabel}
        onChange={(e) => {
          if (!open) {
            setOpen(true);
          }
          setQuery(e.target.value);
        }}
        onClick={show}
        onBlur={close}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            if (!open) return show();
            if (!options.length) return;
            setActive((i) => (i + (e.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
          } else if (e.key === "Enter" && open) {
            e.preventDefault();
            choose(options[active]);
          } else if (e.key === "Escape" && open) {
            e.preventDefault();
            e.stopPropagation();
            close();
          }
        }}
      />
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="pointer-events-none absolute right-2.5 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
        fill="currentColor"
      >
        <path
          fillRule="evenodd"
          d="M5.22 8.22a.75.75 0 0 1 1.06 0L10 11.94l3.72-3.72a.75.75 0 1 1 1.06 1.06l-4.25 4.25a.75.75 0 0 1-1.06 0L5.22 9.28a.75.75 0 0 1 0-1.06Z"
          clipRule="evenodd"
        />
      </svg>
      {open && (
        <div className="absolute left-0 right-0 z-50 mt-1 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg">
          {listed && (
            <ul id={listId} role="listbox" aria-label="Options" className="max-h-72 overflow-y-auto py-1">
              {options.map((o, i) => (
                <li
                  key={o.value}
                  id={optionId(i)}
                  role="option"
                  aria-selected={o.value === value}
                  // mousedown, not click: the input keeps focus (its blur would close the list first)
                  onMouseDown={(e) => {
                    e.preventDefault();
                    choose(o);
                  }}
                  onMouseEnter={() => setActive(i)}
                  className={cn(
                    "cursor-pointer px-3 py-1.5 text-sm",
                    i === active ? "bg-brand-50 text-brand-900" : "text-slate-800",
                    o.value === value && "font-semibold",
                  )}
                >
                  {o.label}
                  {o.hint && <span className="block text-xs font-normal text-slate-500">{o.hint}</span>}
                </li>
              ))}
            </ul>
          )}
          {(loading || !options.length || footer) && (
            <p role="status" className="border-t border-slate-100 px-3 py-1.5 text-xs text-slate-500 first:border-t-0">
              {loading ? "Searching…" : !options.length ? empty : footer}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
