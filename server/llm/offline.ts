/**
 * The built-in offline provider: used ONLY when no provider is configured (neither OPENAI_BASE_URL nor
 * OPENAI_API_KEY), so the product works end to end on a fresh machine. It never calls anything and answers
 * deterministically from the rendered prompt: a labelled echo of the question plus the items it was given
 * (names/titles found in JSON inside the prompt, e.g. an http node's result), so a workflow's data flow is
 * visible without a model.
 */
import type { ChatTurn, LlmProvider, LlmRequest, LlmResponse } from "./types";

export const OFFLINE_MODEL = "offline";
const NAME_KEYS = ["name", "title", "label", "dish", "product", "item"] as const;
const MAX_ITEMS = 20;
const MAX_QUESTION = 300;

/** A rough token count (4 characters a token), so usage numbers stay meaningful. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function collapse(text: string, max: number): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** End offset (exclusive) of the JSON array/object starting at `start`, or -1. Strings and escapes respected. */
function matchingClose(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function namesIn(value: unknown, out: string[], depth = 0): void {
  if (out.length >= MAX_ITEMS || depth > 6) return;
  if (Array.isArray(value)) {
    for (const v of value) {
      if (typeof v === "string" && v.trim()) out.push(collapse(v, 80));
      else namesIn(v, out, depth + 1);
      if (out.length >= MAX_ITEMS) return;
    }
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const key = NAME_KEYS.find((k) => typeof record[k] === "string" && (record[k] as string).trim());
    if (key) {
      out.push(collapse(record[key] as string, 80));
      return;
    }
    for (const v of Object.values(record)) namesIn(v, out, depth + 1);
  }
}

/** Names of the items found in JSON arrays/objects embedded in the text (first 20, de-duplicated). */
export function itemsInText(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  // Bounded work: at most 50 JSON candidates are tried.
  for (let tries = 0; tries < 50 && out.length < MAX_ITEMS; tries++) {
    const open = text.slice(i).search(/[[{]/);
    if (open < 0) break;
    const start = i + open;
    const end = matchingClose(text, start);
    if (end < 0) {
      i = start + 1;
      continue;
    }
    try {
      namesIn(JSON.parse(text.slice(start, end)), out);
      i = end;
    } catch {
      i = start + 1;
    }
  }
  return [...new Set(out)].slice(0, MAX_ITEMS);
}

/** The deterministic offline answer for a conversation. */
export function offlineAnswer(messages: readonly ChatTurn[]): string {
  const user = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const earlier = messages.filter((m) => m.role !== "system").length - 1;
  const items = itemsInText(user);
  const lines = [
    "[offline model: no language model is configured; set OPENAI_BASE_URL or OPENAI_API_KEY]",
    `Question: ${collapse(user, MAX_QUESTION)}`,
  ];
  if (items.length) lines.push(`Items (${items.length}): ${items.join("; ")}`);
  if (earlier > 0) lines.push(`Context: ${earlier} earlier message${earlier === 1 ? "" : "s"} in this conversation.`);
  return lines.join("\n");
}

export function createOfflineProvider(): LlmProvider {
  return {
    name: "offline",
    offline: true,
    async chat(req: LlmRequest): Promise<LlmResponse> {
      req.signal?.throwIfAborted();
      const text = offlineAnswer(req.messages);
      const prompt = req.messages.reduce((n, m) => n + estimateTokens(m.content), 0);
      return { text, usage: { promptTokens: prompt, completionTokens: estimateTokens(text) }, model: OFFLINE_MODEL };
    },
  };
}
