/**
 * Built-in workflow recipes: complete, valid workflows to start from. Served by
 * GET /api/builder/recipes and listed in the node-type summary.
 */
import { z } from "zod";
import { errors } from "../core/errors";
import type { WorkflowInput } from "./schema";

export interface Recipe {
  name: string;
  title: string;
  description: string;
  workflow: WorkflowInput;
}

const minimal: Recipe = {
  name: "minimal",
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

export const RECIPES = {
  minimal,
  http_call_thin: httpCallThin,
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
