"use client";

import { useCallback, useEffect, useState } from "react";
import { readDraft } from "@/components/builder/model/drafts";
import { parseWorkflowJson, type SpecWorkflow } from "@/components/builder/model/workflow";
import { ago } from "../format";

/** Where the shadow's candidate comes from: a version, a workflow JSON file, the builder's canvas draft, or the draft already configured. */
export type CandidateSource = "version" | "file" | "canvas" | "keep";
export type PickedWorkflow = { workflow: SpecWorkflow; note: string; nodes: number };
type Configured = { candidateVersion: number | null; candidateNote: string } | null;

/**
 * The candidate a builder is choosing in the configuration form: the source, the chosen version, an imported file
 * (parsed in the browser only to read it; the server validates it) and the builder's unsaved canvas draft of this
 * agent (localStorage, the canvas' own store), each with the note the server keeps to say where the candidate came from.
 */
export function useCandidateChoice(agentId: string, config: Configured) {
  const [source, setSource] = useState<CandidateSource>("version");
  const [version, setVersion] = useState("");
  const [file, setFile] = useState<PickedWorkflow | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [canvas, setCanvas] = useState<(PickedWorkflow & { updatedAt: string }) | null>(null);

  useEffect(() => {
    setSource(config && config.candidateVersion === null ? "keep" : "version");
    setVersion(config?.candidateVersion ? String(config.candidateVersion) : "");
  }, [config]);
  useEffect(() => {
    // the canvas keeps unsaved edits in this browser only: read after mounting
    const d = readDraft({ kind: "agent", agentId });
    setCanvas(
      d
        ? {
            workflow: d.workflow,
            nodes: d.workflow.nodes.length,
            updatedAt: d.updatedAt,
            note: d.baseVersion ? `canvas draft (edits of version ${d.baseVersion})` : "canvas draft",
          }
        : null,
    );
  }, [agentId]);

  const pickFile = useCallback(async (f: File) => {
    setFileError(null);
    const parsed = parseWorkflowJson(await f.text());
    if (!parsed.ok) {
      setFile(null);
      setFileError(`${f.name}: ${parsed.error}`);
      return;
    }
    setFile({ workflow: parsed.workflow, nodes: parsed.workflow.nodes.length, note: `file ${f.name}` });
    setSource("file");
  }, []);

  /** The candidate part of the PUT body, or why it cannot be sent yet. */
  const body = ():
    | { candidateVersion: number }
    | { candidateWorkflow: unknown; candidateNote: string }
    | { keep: true }
    | { missing: string } => {
    if (source === "version") return version ? { candidateVersion: Number(version) } : { missing: "Choose a version." };
    if (source === "file")
      return file
        ? { candidateWorkflow: file.workflow, candidateNote: file.note }
        : { missing: "Choose a workflow JSON file." };
    if (source === "canvas")
      return canvas
        ? { candidateWorkflow: canvas.workflow, candidateNote: canvas.note }
        : { missing: "There is no canvas draft of this agent in this browser." };
    return { keep: true };
  };

  return {
    source,
    setSource,
    version,
    setVersion,
    file,
    fileError,
    pickFile,
    canvas,
    canvasAgo: canvas ? ago(canvas.updatedAt) : "",
    body,
  };
}
