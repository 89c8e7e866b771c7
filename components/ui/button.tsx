import type { ButtonHTMLAttributes } from "react";
import { cn } from "./cn";

const VARIANTS = {
  primary: "bg-brand-600 text-white hover:bg-brand-700 shadow-sm",
  secondary: "border border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
  danger: "border border-red-200 bg-white text-red-700 hover:bg-red-50",
  dangerSolid: "bg-red-600 text-white hover:bg-red-700 shadow-sm",
  success: "bg-emerald-700 text-white hover:bg-emerald-800 shadow-sm",
  ghost: "text-slate-600 hover:bg-slate-100",
} as const;

const SIZES = { md: "px-3.5 py-2 text-sm", sm: "px-2.5 py-1 text-xs" } as const;

export function Button({
  variant = "primary",
  size = "md",
  className = "",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof VARIANTS; size?: keyof typeof SIZES }) {
  return (
    <button
      type="button"
      {...props}
      className={cn(
        "inline-flex items-center justify-center gap-1.5 rounded-lg font-medium transition disabled:cursor-not-allowed disabled:opacity-60",
        SIZES[size],
        VARIANTS[variant],
        className,
      )}
    />
  );
}
