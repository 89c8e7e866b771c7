/**
 * The canvas header's words and rules as pure functions: the validation status, why Save is blocked, the save
 * state, whether the canvas differs from its baseline, and the sequence that lets only the latest answer count.
 */
import { EMPTY_FINDINGS, statusText, type IndexedFindings } from "./findings";

export type ValidationState = "pending" | "valid" | "invalid" | "error";

export interface ValidationView {
  state: ValidationState;
  label: string;
  /** the badge tone and whether its dot pulses (a check under way) */
  tone: "success" | "danger" | "neutral";
  pulse: boolean;
}

/** What the header's validation badge says about the latest answer (or the check under way). */
export function validationView(findings: IndexedFindings, validating: boolean, error: string | null): ValidationView {
  const state: ValidationState = error ? "error" : validating ? "pending" : findings.errors > 0 ? "invalid" : "valid";
  const label =
    state === "error"
      ? "Validation unavailable"
      : state === "pending" && findings === EMPTY_FINDINGS
        ? "Checking…"
        : findings.errors > 0
          ? statusText(findings.errors, findings.warnings)
          : findings.warnings > 0
            ? `Valid · ${statusText(0, findings.warnings)}`
            : "Valid";
  // A check under way keeps the colour of the last answer's errors.
  const tone =
    state === "valid" ? "success" : state === "error" ? "neutral" : findings.errors > 0 ? "danger" : "neutral";
  return { state, label, tone, pulse: state === "pending" };
}

/** Why Save cannot run now (shown in its tooltip), or null when it can. */
export function saveBlockReason(s: {
  readOnly: boolean;
  name: string;
  validationError: string | null;
  validating: boolean;
  errors: number;
  saved: boolean;
  dirty: boolean;
}): string | null {
  if (s.readOnly) return "Your role can view this agent but not save it.";
  if (!s.name.trim()) return "Give the agent a name first.";
  if (s.validationError) return "Validation is unavailable right now; saving needs a valid workflow.";
  if (s.validating) return "Checking the workflow…";
  if (s.errors > 0) return `Fix ${s.errors} error${s.errors === 1 ? "" : "s"} before saving (see Issues).`;
  if (s.saved && !s.dirty) return "No unsaved changes.";
  return null;
}

/** The save state beside the agent's name. */
export function saveStateText(savedVersion: number | null, dirty: boolean): string {
  if (savedVersion === null) return "Draft · not saved yet";
  return dirty ? `v${savedVersion} · unsaved changes` : `v${savedVersion} · saved`;
}

export interface Baseline {
  /** workflowKey of the saved workflow */
  json: string;
  name: string;
  version: number;
}

/**
 * Whether the canvas has unsaved work: against the saved version when there is one, otherwise against what the
 * canvas opened with (a new agent opened on a restored draft is unsaved from the start).
 */
export function isDirty(
  current: { key: string; name: string },
  baseline: Baseline | null,
  opened: { key: string; name: string; fromDraft: boolean },
): boolean {
  if (baseline) return current.key !== baseline.json || current.name.trim() !== baseline.name;
  return current.key !== opened.key || current.name !== opened.name || opened.fromDraft;
}

/** Numbers requests so that only the latest one's answer is applied: `const mine = seq.next(); ... if (!seq.isLatest(mine)) return;`. */
export class Sequence {
  private current = 0;
  next(): number {
    return ++this.current;
  }
  isLatest(n: number): boolean {
    return n === this.current;
  }
}
