"use client";

/**
 * The canvas header: back to the agents, the agent's name and save state, the validation badge (opens the issues),
 * undo/redo, auto-layout and fit, import/export, version history, and Save with the reason it is blocked.
 */
import Link from "next/link";
import type { RefObject } from "react";
import { BadgeDot, badgeClass } from "@/components/ui/badge";
import { ICONS, Icon } from "@/components/ui/icon";
import { IconButton } from "@/components/ui/icon-button";
import { JsonFileInput } from "@/components/ui/json-file-input";
import { Tip } from "@/components/ui/tooltip";
import type { ValidationView } from "../model/editor-status";
import { VersionsPanel } from "./versions";

function Divider() {
  return <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" />;
}

/** The validation status as a badge that is also the button showing the issues; the bench reads its data attributes. */
function ValidationBadge({
  view,
  roundTripMs,
  onClick,
}: {
  view: ValidationView;
  roundTripMs: number | null;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid="validation-status"
      data-state={view.state}
      data-validate-ms={roundTripMs === null ? undefined : roundTripMs.toFixed(1)}
      aria-label={`Validation: ${view.label}. Show issues`}
      className={`ml-1 shrink-0 transition ${badgeClass({ tone: view.tone, size: "lg" })}`}
    >
      <BadgeDot tone={view.tone} pulse={view.pulse} big />
      <span data-testid="validation-status-text">{view.label}</span>
    </button>
  );
}

export function EditorHeader({
  name,
  onNameChange,
  readOnly,
  saveState,
  validation,
  onToggleIssues,
  history,
  canLayout,
  onAutoLayout,
  onFitView,
  file,
  versions,
  save,
}: {
  name: string;
  onNameChange: (name: string) => void;
  readOnly: boolean;
  saveState: string;
  validation: { view: ValidationView; roundTripMs: number | null };
  onToggleIssues: () => void;
  history: { undo: () => void; redo: () => void; canUndo: boolean; canRedo: boolean };
  canLayout: boolean;
  onAutoLayout: () => void;
  onFitView: () => void;
  file: {
    inputRef: RefObject<HTMLInputElement | null>;
    choose: () => void;
    onFile: (file: File) => void;
    onExport: () => void;
  };
  /** null for an agent that was never saved (no versions yet) */
  versions: {
    agentId: string;
    open: boolean;
    current: number | null;
    toggle: () => void;
    close: () => void;
    onOpen: (version: number) => void;
  } | null;
  save: { onSave: () => void; blockedBy: string | null; saving: boolean; label: string; hint: string };
}) {
  const saveDisabled = !!save.blockedBy || save.saving;
  return (
    <header className="relative z-20 flex h-14 shrink-0 items-center gap-3 border-b border-slate-200 bg-white px-3">
      <Link
        href="/builder"
        className="grid h-8 w-8 place-items-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900"
        aria-label="Back to agents"
      >
        <Icon d={ICONS.back} />
      </Link>
      <div className="flex min-w-0 items-center gap-2">
        <input
          aria-label="Agent name"
          value={name}
          maxLength={120}
          disabled={readOnly}
          placeholder="Name your agent"
          onChange={(e) => onNameChange(e.target.value)}
          className="w-56 min-w-0 rounded-md border border-transparent bg-transparent px-2 py-1 text-[15px] font-semibold text-slate-900 hover:border-slate-200 focus:border-brand-500 focus:bg-white focus:outline-none"
        />
        <span className="hidden shrink-0 text-xs text-slate-500 lg:inline" data-testid="save-state">
          {saveState}
        </span>
      </div>
      <ValidationBadge view={validation.view} roundTripMs={validation.roundTripMs} onClick={onToggleIssues} />

      <div className="ml-auto flex items-center gap-1">
        <IconButton label="Undo" shortcut="Ctrl+Z" onClick={history.undo} disabled={!history.canUndo}>
          <Icon d={ICONS.undo} />
        </IconButton>
        <IconButton label="Redo" shortcut="Ctrl+Shift+Z" onClick={history.redo} disabled={!history.canRedo}>
          <Icon d={ICONS.redo} />
        </IconButton>
        <Divider />
        <IconButton label="Auto-layout" onClick={onAutoLayout} disabled={!canLayout}>
          <Icon d={ICONS.layout} />
        </IconButton>
        <IconButton label="Fit view" onClick={onFitView}>
          <Icon d={ICONS.fit} />
        </IconButton>
        <Divider />
        <IconButton label="Import workflow JSON" onClick={file.choose} disabled={readOnly}>
          <Icon d={ICONS.upload} />
        </IconButton>
        <JsonFileInput
          inputRef={file.inputRef}
          label="Workflow JSON file"
          testId="canvas-import-input"
          onFile={file.onFile}
        />
        <IconButton label="Export workflow JSON" onClick={file.onExport}>
          <Icon d={ICONS.download} />
        </IconButton>
        {versions && (
          <IconButton label="Version history" onClick={versions.toggle} aria-expanded={versions.open}>
            <Icon d={ICONS.history} />
          </IconButton>
        )}
        <Divider />
        <Tip align="end" text={save.blockedBy ?? save.hint} id="save-reason">
          <button
            type="button"
            onClick={save.onSave}
            aria-disabled={saveDisabled}
            aria-describedby="save-reason"
            data-testid="save-button"
            className={`inline-flex h-9 items-center gap-1.5 rounded-lg px-3.5 text-sm font-semibold shadow-sm transition ${
              saveDisabled
                ? "cursor-not-allowed bg-slate-200 text-slate-500"
                : "bg-brand-600 text-white hover:bg-brand-700"
            }`}
          >
            <Icon d={ICONS.check} className="h-4 w-4" />
            {save.label}
          </button>
        </Tip>
      </div>
      {versions && (
        <VersionsPanel
          open={versions.open}
          agentId={versions.agentId}
          current={versions.current}
          onClose={versions.close}
          onOpen={versions.onOpen}
        />
      )}
    </header>
  );
}
