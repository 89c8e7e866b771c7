"use client";

import { Handle, Position, useStore, type NodeProps, type ReactFlowState } from "@xyflow/react";
import { memo } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ICONS, Icon } from "@/components/ui/icon";
import { NODE_CONTRACTS, isNodeType } from "@/server/workflow/contract";
import { kindStyle, kindTitle, summarizeConfig } from "../node-kinds";
import type { WfNode } from "../model/workflow";
import { useNodeFindings, useRunStep } from "./stores";

function FindingBadge({ id }: { id: string }) {
  const f = useNodeFindings(id);
  if (!f || (f.errors === 0 && f.warnings === 0)) return null;
  const isError = f.errors > 0;
  const n = isError ? f.errors : f.warnings;
  const label = isError ? `${n} error${n === 1 ? "" : "s"}` : `${n} warning${n === 1 ? "" : "s"}`;
  return (
    <span
      data-testid={`node-badge-${id}`}
      title={f.messages.join("\n")}
      aria-label={label}
      className={`inline-flex h-5 min-w-5 shrink-0 items-center justify-center gap-0.5 rounded-full px-1.5 text-[11px] font-semibold ${
        isError ? "bg-red-500 text-white" : "bg-amber-400 text-amber-950"
      }`}
    >
      <Icon d={isError ? ICONS.errorSolid : ICONS.warningSolid} viewBox="0 0 16 16" filled className="h-3 w-3" />
      {n}
    </span>
  );
}

function RunChip({ id }: { id: string }) {
  const step = useRunStep(id);
  if (!step) return null;
  const tone: Record<typeof step.status, BadgeTone> = {
    succeeded: "success",
    failed: "danger",
    skipped: "neutral",
    running: "brand",
  };
  const text = { succeeded: "Succeeded", failed: "Failed", skipped: "Skipped", running: "Running…" }[step.status];
  return (
    <div className="border-t border-slate-100 px-3 py-1.5" data-testid={`run-step-${id}`}>
      <Badge tone={tone[step.status]} size="sm" dot title={step.error}>
        {text}
        {step.durationMs !== undefined && (
          <span className="tabular-nums text-slate-500">· {Math.round(step.durationMs)} ms</span>
        )}
      </Badge>
    </div>
  );
}

const handleBase = "!h-3 !w-3 !rounded-full !border-2 !border-white !shadow";

/**
 * Below this zoom a card's text is unreadable anyway: large workflows draw a light version of each node, which keeps
 * dragging smooth with hundreds of nodes on screen. Small workflows keep the full cards down to LIGHT_ZOOM_ALWAYS.
 */
export const DETAIL_ZOOM = 0.45;
const LIGHT_ZOOM_ALWAYS = 0.25;
const LARGE_WORKFLOW = 60;
const farAway = (s: ReactFlowState) =>
  s.transform[2] < LIGHT_ZOOM_ALWAYS || (s.transform[2] < DETAIL_ZOOM && s.nodeLookup.size > LARGE_WORKFLOW);

function FarNode({
  id,
  kind,
  selected,
  condition,
  hasInput,
  hasOutput,
}: {
  id: string;
  kind: string;
  selected: boolean;
  condition: boolean;
  hasInput: boolean;
  hasOutput: boolean;
}) {
  const style = kindStyle(kind);
  const f = useNodeFindings(id);
  const level = f && f.errors > 0 ? "error" : f && f.warnings > 0 ? "warning" : null;
  return (
    <div
      className={`flex h-[96px] w-[248px] items-center gap-4 rounded-2xl border-4 bg-white px-5 ${selected ? "border-brand-500" : level === "error" ? "border-red-400" : "border-slate-300"}`}
      data-lod="far"
    >
      {hasInput && <Handle type="target" position={Position.Left} id="in" className={`${handleBase} !bg-slate-400`} />}
      <span className={`grid h-14 w-14 shrink-0 place-items-center rounded-xl ${style.tile} [&_svg]:h-8 [&_svg]:w-8`}>
        {style.icon}
      </span>
      <span className="min-w-0 flex-1 truncate text-[28px] font-semibold text-slate-800">{id}</span>
      {level && (
        <span
          aria-label={level === "error" ? "Has errors" : "Has warnings"}
          role="img"
          className={`h-7 w-7 shrink-0 rounded-full ${level === "error" ? "bg-red-500" : "bg-amber-400"}`}
        />
      )}
      {condition ? (
        <>
          <Handle
            type="source"
            position={Position.Right}
            id="true"
            className={`${handleBase} !bg-emerald-500`}
            style={{ top: "30%" }}
          />
          <Handle
            type="source"
            position={Position.Right}
            id="false"
            className={`${handleBase} !bg-rose-500`}
            style={{ top: "70%" }}
          />
        </>
      ) : (
        hasOutput && (
          <Handle type="source" position={Position.Right} id="out" className={`${handleBase} !bg-slate-400`} />
        )
      )}
    </div>
  );
}

function FlowNodeImpl({ id, data, selected }: NodeProps<WfNode>) {
  const kind = data.kind;
  const far = useStore(farAway);
  const known = isNodeType(kind);
  const ports = known ? NODE_CONTRACTS[kind].ports : { inputs: ["in"], outputs: ["out"] };
  const isCondition = kind === "condition";
  if (far)
    return (
      <FarNode
        id={id}
        kind={kind}
        selected={!!selected}
        condition={isCondition}
        hasInput={ports.inputs.length > 0}
        hasOutput={ports.outputs.length > 0}
      />
    );
  const style = kindStyle(kind);
  const summary = summarizeConfig(kind, data.config);
  return (
    <div
      className={`group relative w-[248px] rounded-2xl border bg-white text-left shadow-sm transition-shadow hover:shadow-md ${
        selected ? "border-brand-500 ring-2 ring-brand-500/30" : "border-slate-200"
      }`}
    >
      {ports.inputs.length > 0 && (
        <Handle type="target" position={Position.Left} id="in" className={`${handleBase} !bg-slate-400`} />
      )}
      <div className="flex items-center gap-2.5 px-3 pt-3">
        <span className={`grid h-8 w-8 shrink-0 place-items-center rounded-lg ${style.tile}`}>{style.icon}</span>
        <div className="min-w-0 flex-1">
          <div className="truncate text-[13px] font-semibold leading-tight text-slate-900">{kindTitle(kind)}</div>
          <div className="truncate font-mono text-[11px] leading-tight text-slate-500">{id}</div>
        </div>
        <FindingBadge id={id} />
      </div>
      <div className={`px-3 pb-3 pt-2 text-xs leading-snug ${summary ? "text-slate-600" : "italic text-slate-500"}`}>
        <p className="line-clamp-2 break-words">{summary || "Not configured yet"}</p>
      </div>
      {isCondition && (
        <div className="space-y-1 border-t border-slate-100 px-3 py-2 text-[11px] font-medium">
          <div className="flex items-center justify-end gap-1.5 text-emerald-700">
            If true
            <Handle
              type="source"
              position={Position.Right}
              id="true"
              className={`${handleBase} !bg-emerald-500`}
              style={{ top: "auto", position: "relative", transform: "none", right: -18 }}
            />
          </div>
          <div className="flex items-center justify-end gap-1.5 text-rose-700">
            If false
            <Handle
              type="source"
              position={Position.Right}
              id="false"
              className={`${handleBase} !bg-rose-500`}
              style={{ top: "auto", position: "relative", transform: "none", right: -18 }}
            />
          </div>
        </div>
      )}
      <RunChip id={id} />
      {!isCondition && ports.outputs.length > 0 && (
        <Handle type="source" position={Position.Right} id="out" className={`${handleBase} !bg-slate-400`} />
      )}
    </div>
  );
}

export const FlowNode = memo(FlowNodeImpl);
