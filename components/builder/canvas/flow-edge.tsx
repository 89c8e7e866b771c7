"use client";

import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { memo } from "react";
import { Badge } from "@/components/ui/badge";
import type { WfEdge } from "../model/workflow";
import { useEdgeFinding } from "./stores";

function FlowEdgeImpl(props: EdgeProps<WfEdge>) {
  const {
    id,
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
    selected,
    sourceHandleId,
    data,
    markerEnd,
  } = props;
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  const finding = useEdgeFinding(id);
  // Condition edges: a branch from the label or trueTarget/falseTarget (the handle), or unknown (no handle).
  const fromCondition =
    sourceHandleId === "true" || sourceHandleId === "false" || sourceHandleId === null || sourceHandleId === undefined;
  const branch =
    sourceHandleId === "true" || sourceHandleId === "false"
      ? sourceHandleId
      : fromCondition && data?.condition === undefined
        ? "?"
        : null;
  const stroke = finding === "error" ? "#ef4444" : finding === "warning" ? "#f59e0b" : selected ? "#3b6ef5" : "#94a3b8";
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        interactionWidth={24}
        style={{ stroke, strokeWidth: selected || finding ? 2.25 : 1.75, strokeDasharray: finding ? "6 4" : undefined }}
      />
      {(finding || branch) && (
        <EdgeLabelRenderer>
          <div
            className="nodrag nopan pointer-events-none absolute flex items-center gap-1"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            data-testid={`edge-label-${id}`}
          >
            {branch && (
              <Badge
                size="caps"
                tone={branch === "true" ? "success" : branch === "false" ? "rose" : "warning"}
                title={
                  branch === "?"
                    ? "Which branch is this? Draw it from the If true or If false handle."
                    : `${branch} branch`
                }
              >
                {branch === "?" ? "branch?" : branch}
              </Badge>
            )}
            {finding && (
              <span
                role="img"
                aria-label={finding === "error" ? "Edge has an error" : "Edge has a warning"}
                className={`grid h-4 w-4 place-items-center rounded-full text-[10px] font-bold text-white ${finding === "error" ? "bg-red-500" : "bg-amber-500"}`}
              >
                !
              </span>
            )}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const FlowEdge = memo(FlowEdgeImpl);
