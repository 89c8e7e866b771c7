import type { ButtonHTMLAttributes } from "react";
import { cn } from "./cn";

/** The chip's look, pressed or not (exported for the unit test and for an element that must look the same). */
export function toggleChipClass(pressed: boolean): string {
  return cn(
    "inline-flex items-center gap-1 rounded-full border px-3 py-1 text-xs font-medium transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:opacity-60",
    pressed
      ? "border-brand-500 bg-brand-50 text-brand-700"
      : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
  );
}

/**
 * A filter chip that is on or off: a real `<button aria-pressed>`, so Tab reaches it and Enter or Space presses it,
 * and assistive technology reads "pressed". Put a set of them in an element with `role="group"` and an `aria-label`
 * naming what they filter; the text of each chip says what it shows (colour is never the only signal).
 */
export function ToggleChip({
  pressed,
  className,
  children,
  ...rest
}: { pressed: boolean } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "aria-pressed">) {
  return (
    <button type="button" {...rest} aria-pressed={pressed} className={cn(toggleChipClass(pressed), className)}>
      {children}
    </button>
  );
}
