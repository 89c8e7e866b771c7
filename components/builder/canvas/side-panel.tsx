"use client";

/**
 * The right-hand panel: ARIA tabs for the selected node's settings (or the workflow's summary and keys when none or
 * several are selected) and the test run (not offered to read-only roles).
 */
import { TabPanel, Tabs } from "@/components/ui/tabs";
import type { TemplateOption } from "../config-form/completion";
import type { IndexedFindings } from "../model/findings";
import type { SpecWorkflow, WfNodeData } from "../model/workflow";
import { EmptyInspector, Inspector } from "./inspector";
import type { RunStep } from "./stores";
import { TestRunPanel } from "./test-run-panel";

export type SideTab = "inspect" | "run";

const TABS = [
  { id: "inspect", label: "Settings" },
  { id: "run", label: "Test run" },
] as const;

export function SidePanel({
  tab,
  onTab,
  readOnly,
  agentId,
  selection,
  counts,
  findings,
  edits,
  getWorkflow,
  onSteps,
}: {
  tab: SideTab;
  onTab: (tab: SideTab) => void;
  readOnly: boolean;
  agentId: string | null;
  selection: {
    selectedIds: string[];
    selectedId?: string;
    selectedData?: WfNodeData;
    options: TemplateOption[];
    targets: string[];
  };
  counts: { nodes: number; edges: number };
  findings: IndexedFindings;
  edits: {
    updateConfig: (nodeId: string, key: string, value: unknown) => void;
    rename: (from: string, to: string) => void;
    isTaken: (id: string) => boolean;
    deleteOne: (id: string) => void;
    deleteNodes: (ids: string[]) => void;
    duplicate: (id: string) => void;
  };
  getWorkflow: () => SpecWorkflow;
  onSteps: (steps: Map<string, RunStep>) => void;
}) {
  const { selectedId, selectedData } = selection;
  const shown = readOnly ? TABS.filter((t) => t.id === "inspect") : TABS;
  return (
    <aside aria-label="Node settings" className="flex w-[360px] shrink-0 flex-col border-l border-slate-200 bg-white">
      <Tabs
        tabs={shown}
        selected={tab}
        onSelect={(id) => onTab(id as SideTab)}
        label="Side panel"
        idPrefix="side"
        size="sm"
        className="h-10 shrink-0 items-end border-b border-slate-200 px-5"
      />
      <TabPanel id={tab} idPrefix="side" className="min-h-0 flex-1">
        {tab === "inspect" ? (
          selectedId && selectedData ? (
            <Inspector
              key={selectedId}
              nodeId={selectedId}
              data={selectedData}
              findings={findings}
              options={selection.options}
              targets={selection.targets}
              readOnly={readOnly}
              onConfigChange={edits.updateConfig}
              onRename={edits.rename}
              isTaken={edits.isTaken}
              onDelete={edits.deleteOne}
              onDuplicate={edits.duplicate}
            />
          ) : (
            <EmptyInspector
              nodes={counts.nodes}
              edges={counts.edges}
              selectedCount={selection.selectedIds.length}
              onDeleteSelected={() => edits.deleteNodes(selection.selectedIds)}
              readOnly={readOnly}
            />
          )
        ) : (
          <TestRunPanel agentId={agentId} getWorkflow={getWorkflow} hasErrors={findings.errors > 0} onSteps={onSteps} />
        )}
      </TabPanel>
    </aside>
  );
}
