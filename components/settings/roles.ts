import type { BadgeTone } from "@/components/ui/badge";

export const ROLE_OPTIONS = [
  { value: "admin", label: "Admin", hint: "everything, including users and tokens" },
  { value: "builder", label: "Builder", hint: "build and provision agents, run evaluations" },
  { value: "annotator", label: "Annotator", hint: "give human verdicts" },
  { value: "viewer", label: "Viewer", hint: "read only" },
] as const;
export type RoleValue = (typeof ROLE_OPTIONS)[number]["value"];

/** How a role looks as a badge (the text says the role too). */
export const ROLE_TONES: Record<RoleValue, BadgeTone> = {
  admin: "violet",
  builder: "brand",
  annotator: "info",
  viewer: "neutral",
};
