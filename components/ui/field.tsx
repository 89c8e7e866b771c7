import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from "react";
import { cn } from "./cn";

const LOOK =
  "rounded-lg border border-slate-300 bg-white text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-brand-500/20 disabled:bg-slate-50 disabled:text-slate-500 aria-[invalid=true]:border-red-400";

/** The input look shared by every form: full width of its field. */
export const inputClass = `block w-full px-3 py-2 text-sm focus:ring-2 ${LOOK}`;

/** The same, sized by its row instead of filling it (a name and a role side by side in Settings). */
export const inlineInputClass = `px-3 py-2 text-sm focus:ring-2 ${LOOK}`;

/** The same look, denser, for the canvas' side panel (config forms, test run). */
export const denseInputClass = `block w-full px-2.5 py-1.5 text-[13px] shadow-xs focus:ring-3 ${LOOK}`;

/**
 * A labelled form field: the label, an optional hint and error, wired to the control with id/aria-describedby/aria-invalid.
 * `aside` is shown at the label's right (a type, a unit); `dense` is the side panel's size.
 */
export function Field({
  label,
  hint,
  error,
  aside,
  dense = false,
  children,
  className = "",
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  aside?: ReactNode;
  dense?: boolean;
  children: ReactElement<Record<string, unknown>>;
  className?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: (children.props.id as string | undefined) ?? id,
        "aria-describedby": describedBy,
        "aria-invalid": error ? true : undefined,
      })
    : children;
  const controlId = (isValidElement(children) ? (children.props.id as string | undefined) : undefined) ?? id;
  const labelClass = dense ? "text-[13px] font-medium text-slate-800" : "text-sm font-medium text-slate-800";
  return (
    <div className={className}>
      <div className={`flex items-baseline justify-between gap-2 ${dense ? "mb-1" : ""}`}>
        <label htmlFor={controlId} className={`block ${labelClass}`}>
          {label}
        </label>
        {aside}
      </div>
      <div className={dense ? "" : "mt-1"}>{control}</div>
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A list filter's label above its control (a select, a date, a search box): the filter rows of the evaluation pages. */
export function FilterField({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <label className="text-xs font-medium text-slate-600">
      {label}
      {children}
    </label>
  );
}

export type FilterOption = { value: string; label: ReactNode; title?: string };

/**
 * A filter as a native select (keyboard and screen readers as the platform gives them; the label names it). `any` is
 * the first option, meaning "no filter" (the value is then undefined); without it one of the options is always chosen.
 */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  any,
  className,
}: {
  label: ReactNode;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  options: ReadonlyArray<FilterOption>;
  any?: string;
  className?: string;
}) {
  return (
    <FilterField label={label}>
      <select
        className={cn(inputClass, "mt-1", className)}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        {any !== undefined && <option value="">{any}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} title={o.title}>
            {o.label}
          </option>
        ))}
      </select>
    </FilterField>
  );
}
