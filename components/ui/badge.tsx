import { cn } from "./cn";
import type { HTMLAttributes, ReactNode } from "react";

/** A small label for a status or a kind. Tones carry meaning; the text always says it too (never colour alone). */
export const BADGE_TONES = {
  neutral: "bg-slate-100 text-slate-700 ring-slate-200",
  brand: "bg-brand-50 text-brand-700 ring-brand-100",
  success: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  warning: "bg-amber-50 text-amber-800 ring-amber-200",
  danger: "bg-red-50 text-red-700 ring-red-200",
  info: "bg-sky-50 text-sky-800 ring-sky-200",
  violet: "bg-violet-50 text-violet-800 ring-violet-200",
  rose: "bg-rose-50 text-rose-700 ring-rose-200",
} as const;
export type BadgeTone = keyof typeof BADGE_TONES;

const DOTS: Record<BadgeTone, string> = {
  neutral: "bg-slate-400",
  brand: "bg-brand-500",
  success: "bg-emerald-500",
  warning: "bg-amber-500",
  danger: "bg-red-500",
  info: "bg-sky-500",
  violet: "bg-violet-500",
  rose: "bg-rose-500",
};

const SIZES = {
  /** tiny capitals: REQUIRED, TRUE/FALSE on an edge */
  caps: "gap-1 px-1.5 py-px text-[10px] font-semibold uppercase tracking-wide",
  /** inside dense canvas cards and lists */
  sm: "gap-1 px-2 py-0.5 text-[11px] font-medium",
  md: "gap-1 px-2 py-0.5 text-xs font-medium",
  /** a badge that is also a button (the canvas' validation status) */
  lg: "gap-1.5 px-2.5 py-1 text-xs font-semibold",
} as const;
export type BadgeSize = keyof typeof SIZES;

/** The badge look as class names, for an element that must be something else (a button, a code): one look, one place. */
export function badgeClass({
  tone = "neutral",
  size = "md",
  square = false,
}: {
  tone?: BadgeTone;
  size?: BadgeSize;
  square?: boolean;
} = {}): string {
  return `inline-flex items-center whitespace-nowrap ring-1 ring-inset ${square ? "rounded" : "rounded-full"} ${SIZES[size]} ${BADGE_TONES[tone]}`;
}

/** The coloured dot some badges lead with (`big` in a large badge); `pulse` while something is pending. */
export function BadgeDot({
  tone = "neutral",
  pulse = false,
  big = false,
}: {
  tone?: BadgeTone;
  pulse?: boolean;
  big?: boolean;
}) {
  return (
    <span
      aria-hidden="true"
      className={`shrink-0 rounded-full ${big ? "h-2 w-2" : "h-1.5 w-1.5"} ${DOTS[tone]} ${pulse ? "animate-pulse" : ""}`}
    />
  );
}

export function Badge({
  tone = "neutral",
  size = "md",
  square = false,
  dot = false,
  children,
  className = "",
  ...rest
}: {
  tone?: BadgeTone;
  size?: BadgeSize;
  square?: boolean;
  dot?: boolean;
  children: ReactNode;
  className?: string;
} & Omit<HTMLAttributes<HTMLSpanElement>, "className" | "children">) {
  return (
    <span {...rest} className={cn(badgeClass({ tone, size, square }), className)}>
      {dot && <BadgeDot tone={tone} />}
      {children}
    </span>
  );
}
