"use client";

/**
 * The workflow canvas: a composition of one hook per concern (hooks/) and the header, palette, drawing area, issues
 * and side panel. React Flow runs in controlled mode over the spec workflow, with live server validation, undo/redo,
 * copy/paste, auto-layout, local drafts, versions, import/export and test runs.
 *
 * State ownership: nodes/edges live in `useGraph` (mirrored in refs so callbacks stay stable); findings and test-run
 * steps live in keyed stores read by each node/edge component; the saved baseline lives in a ref (`useBaseline`).
 */
import "@xyflow/react/dist/style.css";
import "./canvas.css";

import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useCallback, useMemo, useRef, useState } from "react";
import type { DraftKey } from "../model/drafts";
import { saveStateText } from "../model/editor-status";
import type { SpecWorkflow, WfEdge, WfNode } from "../model/workflow";
import { DraftBanner } from "./draft-banner";
import { EditorHeader } from "./editor-header";
import { FlowCanvas, fitViewOptions } from "./flow-canvas";
import { useCanvasToast } from "./hooks/use-canvas-toast";
import { useDraftAutosave } from "./hooks/use-draft-autosave";
import { useFindingFocus } from "./hooks/use-finding-focus";
import { useGraph } from "./hooks/use-graph";
import { useGraphEdits } from "./hooks/use-graph-edits";
import { useImportExport } from "./hooks/use-import-export";
import { useLatest } from "./hooks/use-latest";
import { useLeaveGuard } from "./hooks/use-leave-guard";
import { useLiveValidation } from "./hooks/use-live-validation";
import { useBaseline, useSave } from "./hooks/use-save";
import { useSelection } from "./hooks/use-selection";
import { useCanvasShortcuts } from "./hooks/use-shortcuts";
import { useVersions } from "./hooks/use-versions";
import { IssuesPanel } from "./issues-panel";
import { Palette } from "./palette";
import { SidePanel, type SideTab } from "./side-panel";
import { StoresContext, createStores, type RunStep } from "./stores";
import { sameNodeFindings } from "../model/findings";
import { VersionPreview } from "./versions";

export interface EditorProps {
  /** null while the agent has never been saved (a new draft). */
  agentId: string | null;
  draftKey: DraftKey;
  initialName: string;
  initialWorkflow: SpecWorkflow;
  /** The last saved version (null for a new agent). */
  saved: { name: string; workflow: SpecWorkflow; version: number } | null;
  canWrite: boolean;
  /** The canvas opened on a local draft saved at this time. */
  restoredDraftAt?: string;
  /** The local draft is based on an older version than the latest. */
  draftBehind?: { base: number; latest: number };
  onDiscardDraft?: () => void;
  /** Notes from importing a file (ids or positions that had to be filled in). */
  notices?: string[];
  origin?: string;
  /** agent (default) or judge: a judge is validated and saved against the judge contract */
  kind?: "agent" | "judge";
}

export function WorkflowEditor(props: EditorProps) {
  return (
    <ReactFlowProvider>
      <EditorInner {...props} />
    </ReactFlowProvider>
  );
}

function EditorInner(props: EditorProps) {
  const { agentId, draftKey, canWrite } = props;
  const readOnly = !canWrite;
  const rf = useReactFlow<WfNode, WfEdge>();
  const stores = useMemo(() => createStores(sameNodeFindings), []);
  const wrapper = useRef<HTMLDivElement>(null);
  const kind = props.kind ?? "agent";
  const canvas = { agentId, draftKey, readOnly, origin: props.origin, kind };
  const [nameValue, setName] = useState(props.initialName);
  const name = { value: nameValue, ref: useLatest(nameValue) };
  const [sideTab, setSideTab] = useState<SideTab>("inspect");
  const [issuesOpen, setIssuesOpen] = useState(true);
  const [draftBanner, setDraftBanner] = useState(!!props.restoredDraftAt);
  const inspect = useCallback(() => setSideTab("inspect"), []);
  const toggleIssues = useCallback(() => setIssuesOpen((o) => !o), []);
  const hideDraftBanner = useCallback(() => setDraftBanner(false), []);
  const setRunSteps = useCallback((steps: Map<string, RunStep>) => stores.runSteps.replace(steps), [stores]);

  const toast = useCanvasToast(props.notices);
  const graph = useGraph(props.initialWorkflow, readOnly);
  const selection = useSelection(graph);
  const edits = useGraphEdits({
    graph,
    readOnly,
    wrapper,
    toast,
    onAdded: inspect,
    onRenamed: selection.renameSelected,
  });
  const validation = useLiveValidation(graph, stores, kind);
  const baseline = useBaseline(props.saved);
  const opened = { name: props.initialName, workflow: props.initialWorkflow, restoredDraftAt: props.restoredDraftAt };
  const draft = useDraftAutosave({ canvas, graph, name, baseline, opened });
  useLeaveGuard(draft.dirty);
  const checked = { error: validation.error, validating: validation.validating, errors: validation.findings.errors };
  const save = useSave({ canvas, graph, name, baseline, draft, validation: checked, toast, onSaved: hideDraftBanner });
  const versions = useVersions({ canvas, graph, name, baseline, draft, toast });
  const file = useImportExport({ graph, name, toast });
  const pick = useFindingFocus({ graph, onInspect: inspect });
  useCanvasShortcuts({
    save: save.save,
    undo: graph.undo,
    redo: graph.redo,
    copy: edits.copy,
    paste: edits.paste,
    previewOpen: versions.preview !== null,
    toast,
  });

  return (
    <StoresContext.Provider value={stores}>
      <div className="fb-canvas flex h-dvh min-h-0 flex-col overflow-hidden bg-slate-50">
        <EditorHeader
          name={name.value}
          onNameChange={setName}
          readOnly={readOnly}
          saveState={saveStateText(agentId ? baseline.savedVersion : null, draft.dirty)}
          validation={validation}
          onToggleIssues={toggleIssues}
          history={{
            undo: graph.undo,
            redo: graph.redo,
            canUndo: graph.canUndo && !readOnly,
            canRedo: graph.canRedo && !readOnly,
          }}
          canLayout={!readOnly && graph.nodes.length > 0}
          onAutoLayout={() => void edits.autoLayout()}
          onFitView={() => void rf.fitView({ ...fitViewOptions, duration: 300 })}
          file={{
            inputRef: file.fileInput,
            choose: file.chooseFile,
            onFile: (f) => void file.importFile(f),
            onExport: file.exportJson,
          }}
          versions={
            agentId
              ? {
                  agentId,
                  open: versions.open,
                  current: baseline.savedVersion,
                  toggle: versions.toggle,
                  close: versions.close,
                  onOpen: versions.openPreview,
                }
              : null
          }
          save={{
            onSave: () => void save.save(),
            blockedBy: save.blockedBy,
            saving: save.saving,
            label: save.label,
            hint: agentId
              ? "Provision a new immutable version (Ctrl+S)"
              : "Create the agent with this workflow as version 1 (Ctrl+S)",
          }}
        />
        <div className="flex min-h-0 flex-1">
          <Palette onAdd={edits.addAtCentre} disabled={readOnly} />
          <div className="relative flex min-w-0 flex-1 flex-col">
            {draftBanner && (
              <DraftBanner
                savedAt={props.restoredDraftAt}
                behind={props.draftBehind}
                onDiscard={props.onDiscardDraft}
                onDismiss={hideDraftBanner}
              />
            )}
            <FlowCanvas
              graph={graph}
              readOnly={readOnly}
              wrapper={wrapper}
              onDragOver={edits.onDragOver}
              onDrop={edits.onDrop}
              onSelectionChange={selection.onSelectionChange}
            >
              {versions.preview !== null && agentId && (
                <VersionPreview
                  agentId={agentId}
                  version={versions.preview}
                  canRestore={canWrite}
                  restoring={versions.restoring}
                  onRestore={(wf, v) => void versions.restore(wf, v)}
                  onClose={versions.closePreview}
                />
              )}
            </FlowCanvas>
            <IssuesPanel
              findings={validation.findings}
              open={issuesOpen}
              onToggle={toggleIssues}
              onPick={pick}
              pending={validation.validating}
              error={validation.error}
            />
          </div>
          <SidePanel
            tab={sideTab}
            onTab={setSideTab}
            readOnly={readOnly}
            agentId={agentId}
            selection={selection}
            counts={{ nodes: graph.nodes.length, edges: graph.edges.length }}
            findings={validation.findings}
            edits={edits}
            getWorkflow={graph.getWorkflow}
            onSteps={setRunSteps}
          />
        </div>
      </div>
    </StoresContext.Provider>
  );
}
