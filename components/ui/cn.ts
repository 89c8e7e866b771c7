import { twMerge, type ClassNameValue } from "tailwind-merge";

/** Joins class names and lets a later utility win over an earlier one of the same kind (`cn(inputClass, "w-40")`). */
export function cn(...classes: ClassNameValue[]): string {
  return twMerge(...classes);
}
