/**
 * Built-in workflow recipes: complete, valid workflows to start from. Served by
 * GET /api/builder/recipes and listed in the node-type summary.
 */
import { z } from "zod";
import { errors } from "../core/errors";
import type { AgentKind } from "./judge";
import type { WorkflowInput } from "./schema";

export interface Recipe {
  name: string;
  title: string;
  description: string;
  /** the kind of agent the recipe starts (judge recipes follow the judge contract, judge.ts) */
  kind: AgentKind;
  workflow: WorkflowInput;
}

const minimal: Recipe = {
  name: "minimal",
  kind: "agent",
  title: "Minimal: start -> llm -> end",
  description:
    'The smallest valid workflow: the start declares one required string input `query` (default ""), an llm answers it, the end returns the llm result.',
  workflow: {
    nodes: [
      {
        id: "start",
        type: "start",
        config: { outputs: [{ name: "query", type: "string", required: true, default: "" }] },
        position: { x: 0, y: 0 },
      },
      {
        id: "llm_1",
        type: "llm",
        config: { systemPrompt: "You are a helpful assistant. Answer briefly.", userPrompt: "{{start.query}}" },
        position: { x: 280, y: 0 },
      },
      { id: "end", type: "end", config: { output: "{{llm_1.result}}" }, position: { x: 560, y: 0 } },
    ],
    edges: [
      { source: "start", target: "llm_1" },
      { source: "llm_1", target: "end" },
    ],
  },
};

const httpCallThin: Recipe = {
  name: "http_call_thin",
  kind: "agent",
  title: "Thin HTTP call: start -> http -> llm -> end",
  description:
    "Calls the owner's own API (GET /health, joined to WEBHOOK_BASE_URL) and lets an llm answer with the response. For a real business API: change the url, then validate, then provision.",
  workflow: {
    nodes: [
      {
        id: "start",
        type: "start",
        config: { outputs: [{ name: "query", type: "string", required: true, default: "" }] },
        position: { x: 0, y: 0 },
      },
      {
        id: "http_1",
        type: "http",
        config: { url: "/health", method: "GET", timeout: 10_000 },
        position: { x: 280, y: 0 },
      },
      {
        id: "llm_1",
        type: "llm",
        config: {
          systemPrompt: "You answer using the API response you are given. Say so when it does not contain the answer.",
          userPrompt: "Question: {{start.query}}\n\nAPI response:\n{{http_1.result}}",
        },
        position: { x: 560, y: 0 },
      },
      { id: "end", type: "end", config: { output: "{{llm_1.result}}" }, position: { x: 840, y: 0 } },
    ],
    edges: [
      { source: "start", target: "http_1" },
      { source: "http_1", target: "llm_1" },
      { source: "llm_1", target: "end" },
    ],
  },
};

/** The inputs every judge recipe declares (the judge contract's required ones; judge.ts). */
const judgeInputs = [
  { name: "question", type: "string", required: false, default: "", description: "The sample's question" },
  {
    name: "expected_points",
    type: "array",
    required: false,
    default: [],
    description: "The points the answer must cover",
  },
  { name: "answer", type: "string", required: false, default: "", description: "The answer to judge" },
];

/** The rubric of judge_llm_rubric's llm node: edit it to judge what matters to you. */
export const JUDGE_RUBRIC_PROMPT = [
  "You judge an AI assistant's answer against expected points. You get the question, the expected points and the answer.",
  "For EACH expected point decide whether the answer states it: covered (stated), partial (only partly or vaguely), missing (not stated).",
  "Judge the meaning, not the exact words. Fabricated items, refusals and answers that contradict a point do not cover it.",
  'Reply with JSON only: {"verdict":"pass"|"fail"|"unknown","rationale":"one sentence","points":[{"point":"<the point as given>","status":"covered"|"partial"|"missing"}]}.',
  "verdict: pass when every point is covered, fail when any point is missing, unknown when you cannot tell.",
].join("\n");

/** judge_llm_rubric's code node: reads the model's JSON into the judge answer; anything unreadable is unknown. */
const PARSE_RUBRIC_REPLY = `import json

reply = inputs.get("reply") or ""
points = inputs.get("points") or []
result = {"verdict": "unknown", "rationale": "the model's reply could not be read as JSON"}
start, end = reply.find("{"), reply.rfind("}")
data = None
if 0 <= start < end:
    try:
        data = json.loads(reply[start:end + 1])
    except ValueError:
        data = None
if isinstance(data, dict):
    got = []
    for i, p in enumerate(data.get("points") or []):
        if not isinstance(p, dict):
            continue
        status = p.get("status")
        if status not in ("covered", "partial", "missing") and isinstance(p.get("covered"), bool):
            status = "covered" if p["covered"] else "missing"
        if status not in ("covered", "partial", "missing"):
            continue
        point = p.get("point")
        if not isinstance(point, str):
            index = p.get("index", i)
            point = points[index] if isinstance(index, int) and 0 <= index < len(points) else str(index)
        got.append({"point": point, "status": status})
    verdict = data.get("verdict")
    if verdict not in ("pass", "fail", "unknown"):
        if any(p["status"] == "missing" for p in got):
            verdict = "fail"
        elif got and len(got) >= len(points) and all(p["status"] == "covered" for p in got):
            verdict = "pass"
        else:
            verdict = "unknown"
    rationale = data.get("rationale")
    result = {
        "verdict": verdict,
        "rationale": rationale[:1000] if isinstance(rationale, str) else "",
        "points": got,
    }
`;

const judgeLlmRubric: Recipe = {
  name: "judge_llm_rubric",
  kind: "judge",
  title: "Judge with an LLM rubric: start -> llm -> code -> end",
  description:
    "A judge (kind judge): an llm reads the question, the expected points and the answer with an editable rubric and replies JSON; a code node reads that reply into the judge answer {verdict, rationale, points} (an unreadable reply is unknown). Create it with kind judge and choose it as a set's judge.",
  workflow: {
    nodes: [
      { id: "start", type: "start", config: { outputs: judgeInputs }, position: { x: 0, y: 0 } },
      {
        id: "rubric",
        type: "llm",
        config: {
          systemPrompt: JUDGE_RUBRIC_PROMPT,
          userPrompt:
            "Question:\n{{start.question}}\n\nExpected points (JSON):\n{{start.expected_points}}\n\nAnswer:\n{{start.answer}}",
          temperature: 0,
          maxTokens: 800,
        },
        position: { x: 280, y: 0 },
      },
      {
        id: "parse",
        type: "code",
        config: {
          code: PARSE_RUBRIC_REPLY,
          inputs: { reply: "{{rubric.result}}", points: "{{start.expected_points}}" },
          timeout: 5000,
        },
        position: { x: 560, y: 0 },
      },
      { id: "end", type: "end", config: { output: "{{parse.result}}" }, position: { x: 840, y: 0 } },
    ],
    edges: [
      { source: "start", target: "rubric" },
      { source: "rubric", target: "parse" },
      { source: "parse", target: "end" },
    ],
  },
};

/** judge_python's scorer: a point is covered when most of its words are in the answer. */
const PYTHON_SCORER = `import re

# words that say how a point is phrased, not what it asks for
SKIP = {"the", "and", "for", "with", "that", "this", "are", "was", "its", "mention", "mentions", "say", "says",
        "state", "states", "give", "gives", "include", "includes", "answer"}

def words(text):
    # latin words of 3+ letters (a plural's s dropped), numbers, and single Han characters
    found = re.findall(r"[a-z0-9]{3,}|[0-9]+|[\\u4e00-\\u9fff]", str(text).lower())
    return {w[:-1] if len(w) > 4 and w.endswith("s") else w for w in found if w not in SKIP}

answer = words(inputs.get("answer") or "")
points = [p for p in (inputs.get("points") or []) if isinstance(p, str)]
got = []
for point in points:
    need = words(point)
    share = len(need & answer) / len(need) if need else 0.0
    status = "covered" if share >= 0.75 else "partial" if share >= 0.4 else "missing"
    got.append({"point": point, "status": status})
if not got:
    verdict = "unknown"
elif any(p["status"] == "missing" for p in got):
    verdict = "fail"
elif all(p["status"] == "covered" for p in got):
    verdict = "pass"
else:
    verdict = "unknown"
covered = sum(1 for p in got if p["status"] == "covered")
result = {"verdict": verdict, "rationale": f"{covered}/{len(got)} points covered", "points": got}
`;

const judgePython: Recipe = {
  name: "judge_python",
  kind: "judge",
  title: "Judge in Python: start -> code -> end",
  description:
    "A judge (kind judge) that scores in the Python sandbox: a point is covered when at least 3/4 of its words are in the answer, partial from 2/5; pass when every point is covered, fail when one is missing. Replace the code with your own scorer; it must set result = {verdict, rationale?, points?}.",
  workflow: {
    nodes: [
      { id: "start", type: "start", config: { outputs: judgeInputs }, position: { x: 0, y: 0 } },
      {
        id: "score",
        type: "code",
        config: {
          code: PYTHON_SCORER,
          inputs: { question: "{{start.question}}", points: "{{start.expected_points}}", answer: "{{start.answer}}" },
          timeout: 5000,
        },
        position: { x: 280, y: 0 },
      },
      { id: "end", type: "end", config: { output: "{{score.result}}" }, position: { x: 560, y: 0 } },
    ],
    edges: [
      { source: "start", target: "score" },
      { source: "score", target: "end" },
    ],
  },
};

export const RECIPES = {
  minimal,
  http_call_thin: httpCallThin,
  judge_llm_rubric: judgeLlmRubric,
  judge_python: judgePython,
} as const satisfies Record<string, Recipe>;

export type RecipeName = keyof typeof RECIPES;

export const RECIPE_NAMES = Object.keys(RECIPES) as RecipeName[];

/** A deep copy of the named recipe (callers may edit it), or undefined. */
export function getRecipe(name: string): Recipe | undefined {
  if (!Object.hasOwn(RECIPES, name)) return undefined;
  return structuredClone(RECIPES[name as RecipeName]);
}

/** A recipe by name: `{ name }` (REST path parameter and tRPC input). */
export const RecipeParams = z.object({ name: z.string().max(64) });

/** The named recipe (a copy), or 404 NOT_FOUND: what both faces answer. */
export function requireRecipe(name: string): Recipe {
  const recipe = getRecipe(name);
  if (!recipe) throw errors.notFound(`Recipe ${name}`);
  return recipe;
}
