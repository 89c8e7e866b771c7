/**
 * The judge contract: what the workflow of an agent of kind `judge` must look like, so the evaluation center can
 * call it on every answer of a run and read its verdict. Pure (zod only), used by the validator (`validate.ts`,
 * body `{ workflow, kind: "judge" }`), provisioning, the canvas and the evaluation center, which parses a judge's
 * answer with `JudgeAnswerSchema`.
 *
 * - The start node declares the inputs the evaluation center fills in: `question` (string), `expected_points` (array
 *   of strings), `answer` (string), and optionally `payload` (object: the answer's structured payload), `script`
 *   (array: the turns of a multi-turn question, each `{ role, content, preset, answer? }`) and `scenario` (string: the
 *   sample's classification). Any other input it declares must not be required without a default (nobody fills it).
 * - The end node's `output` is the JSON text of `{ verdict: "pass" | "fail" | "unknown", rationale?: string,
 *   points?: [{ point, status: "covered" | "partial" | "missing" }] }`: normally exactly one template naming a node
 *   whose output is that object (a code node's `result`), which renders as its JSON.
 */
import { z } from "zod";
import type { FindingCode } from "./codes";
import type { Finding } from "./schema";
import { extractTemplateRefs } from "./templates";

export const AGENT_KINDS = ["agent", "judge"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/** The inputs a judge's start node declares (name, JSON type, whether the contract needs it). */
export const JUDGE_INPUTS = [
  { name: "question", type: "string", required: true, description: "The sample's question" },
  { name: "expected_points", type: "array", required: true, description: "The points the answer must cover" },
  { name: "answer", type: "string", required: true, description: "The answer to judge (all turns' answers, joined)" },
  { name: "payload", type: "object", required: false, description: "The answer's structured payload, when any" },
  { name: "script", type: "array", required: false, description: "A multi-turn question's turns with their answers" },
  { name: "scenario", type: "string", required: false, description: "The sample's scenario (classification)" },
] as const;
export type JudgeInputName = (typeof JUDGE_INPUTS)[number]["name"];

export const JUDGE_VERDICTS = ["pass", "fail", "unknown"] as const;
export const JUDGE_POINT_STATUSES = ["covered", "partial", "missing"] as const;

/** What a judge's end node outputs (as JSON text). */
export const JudgeAnswerSchema = z
  .object({
    verdict: z.enum(JUDGE_VERDICTS),
    rationale: z.string().max(4000).optional(),
    points: z
      .array(z.object({ point: z.string().max(2000), status: z.enum(JUDGE_POINT_STATUSES) }))
      .max(200)
      .optional(),
  })
  .meta({
    id: "JudgeAnswer",
    description: "What a judge agent's end node outputs, as JSON text: its verdict, why, and each point's status.",
  });
export type JudgeAnswer = z.output<typeof JudgeAnswerSchema>;

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const own = (o: Json, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
const finding = (
  code: FindingCode,
  severity: "error" | "warning",
  path: string,
  message: string,
  nodeId?: string,
): Finding => ({ code, severity, message, path, ...(nodeId !== undefined ? { nodeId } : {}) });

/**
 * The judge contract's findings on a workflow (nothing when its shape is too broken to tell: the validator's own
 * findings say why). `pathPrefix`: the JSON pointer of the workflow in the request body ("/workflow").
 */
export function judgeContractFindings(workflow: unknown, pathPrefix = ""): Finding[] {
  const out: Finding[] = [];
  if (!isRecord(workflow) || !Array.isArray(own(workflow, "nodes"))) return out;
  const nodes = own(workflow, "nodes") as unknown[];
  nodes.forEach((node, index) => {
    if (!isRecord(node)) return;
    const id = typeof node.id === "string" ? node.id : undefined;
    const label = id !== undefined ? `node ${JSON.stringify(id)}` : `the node at index ${index}`;
    const config = isRecord(own(node, "config")) ? (own(node, "config") as Json) : {};
    const at = `${pathPrefix}/nodes/${index}/config`;
    if (own(node, "type") === "start") {
      const outputs = Array.isArray(own(config, "outputs")) ? (own(config, "outputs") as unknown[]) : [];
      const variables = isRecord(own(config, "variables")) ? (own(config, "variables") as Json) : {};
      const byName = new Map<string, { index: number; type: unknown; required: unknown; hasDefault: boolean }>();
      outputs.forEach((o, i) => {
        if (isRecord(o) && typeof o.name === "string" && !byName.has(o.name))
          byName.set(o.name, { index: i, type: o.type, required: o.required, hasDefault: Object.hasOwn(o, "default") });
      });
      for (const input of JUDGE_INPUTS) {
        const declared = byName.get(input.name);
        if (!declared) {
          if (input.required && !Object.hasOwn(variables, input.name))
            out.push(
              finding(
                "JUDGE_INPUT_MISSING",
                "error",
                `${at}/outputs`,
                `The start ${label} of a judge must declare the input "${input.name}" (${input.type}): the evaluation center fills it in.`,
                id,
              ),
            );
          continue;
        }
        if (declared.type !== input.type)
          out.push(
            finding(
              "JUDGE_INPUT_TYPE",
              "error",
              `${at}/outputs/${declared.index}/type`,
              `The judge input "${input.name}" of the start ${label} must be of type ${input.type}, got ${JSON.stringify(declared.type ?? null)}.`,
              id,
            ),
          );
      }
      const known = new Set<string>(JUDGE_INPUTS.map((i) => i.name));
      for (const [name, o] of byName)
        if (!known.has(name) && o.required === true && !o.hasDefault)
          out.push(
            finding(
              "JUDGE_INPUT_UNEXPECTED",
              "error",
              `${at}/outputs/${o.index}`,
              `The start ${label} of a judge requires the input "${name}" without a default, but a judge only gets ${JUDGE_INPUTS.map((i) => i.name).join(", ")}; give it a default or make it optional.`,
              id,
            ),
          );
    }
    if (own(node, "type") === "end") {
      const output = own(config, "output");
      const text = typeof output === "string" ? output.trim() : "";
      if (!text) {
        out.push(
          finding(
            "JUDGE_OUTPUT_MISSING",
            "error",
            `${at}/output`,
            `The end ${label} of a judge has no output; it must output the judge's JSON answer {"verdict": "pass"|"fail"|"unknown", "rationale"?, "points"?}.`,
            id,
          ),
        );
        return;
      }
      const scan = extractTemplateRefs(text);
      if (scan.refs.length === 0) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        if (!JudgeAnswerSchema.safeParse(parsed).success)
          out.push(
            finding(
              "JUDGE_OUTPUT_INVALID",
              "error",
              `${at}/output`,
              `The end ${label} of a judge outputs fixed text that is not a judge answer {"verdict": "pass"|"fail"|"unknown", "rationale"?, "points"?}.`,
              id,
            ),
          );
        return;
      }
      const single = scan.refs.length === 1 && /^\{\{[^{}]*\}\}$/.test(text);
      if (!single)
        out.push(
          finding(
            "JUDGE_OUTPUT_NOT_SINGLE_VALUE",
            "warning",
            `${at}/output`,
            `The end ${label} of a judge mixes text and templates; its output is read as JSON, so prefer exactly one template naming a node that outputs the judge answer object (e.g. {{parse.result}}).`,
            id,
          ),
        );
    }
  });
  return out;
}
