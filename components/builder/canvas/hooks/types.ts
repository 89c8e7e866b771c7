/** What several canvas hooks share: the canvas' agent and draft, the agent's name, the saved baseline and the draft state. */
import type { RefObject } from "react";
import type { DraftKey } from "../../model/drafts";
import type { Baseline } from "../../model/editor-status";
import type { SpecWorkflow } from "../../model/workflow";

export interface CanvasInfo {
  /** null while the agent has never been saved */
  agentId: string | null;
  draftKey: DraftKey;
  readOnly: boolean;
  /** where a new agent came from ("recipe minimal", "file x.json"): noted on its first version */
  origin?: string;
  /** agent or judge (a judge's workflow is validated and saved against the judge contract) */
  kind: "agent" | "judge";
}

/** The name as state (renders) and as a ref (stable callbacks read it). */
export interface NameState {
  value: string;
  ref: RefObject<string>;
}

/** The last saved version (`useBaseline`). */
export interface SavedBaseline {
  ref: RefObject<Baseline | null>;
  savedVersion: number | null;
  markSaved: (workflow: SpecWorkflow, name: string, version: number) => void;
}

/** Unsaved work (`useDraftAutosave`); `leaving` stops drafts once the canvas hands over to another page. */
export interface DraftState {
  dirty: boolean;
  setDirty: (dirty: boolean) => void;
  leaving: RefObject<boolean>;
}
