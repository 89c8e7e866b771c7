import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from "react";

/** The input look shared by every form. */
export const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/20 disabled:bg-slate-50 disabled:text-slate-500 aria-[invalid=true]:border-red-400";

/** A labelled form field: the label, an optional hint and error, wired to the control with id/aria-describedby/aria-invalid. */
export function Field({ label, hint, error, children, className = "" }: { label: ReactNode; hint?: ReactNode; error?: ReactNode; children: ReactElement<Record<string, unknown>>; className?: string }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, { id: (children.props.id as string | undefined) ?? id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })
    : children;
  const controlId = (isValidElement(children) ? (children.props.id as string | undefined) : undefined) ?? id;
  return (
    <div className={className}>
      <label htmlFor={controlId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="mt-1">{control}</div>
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
