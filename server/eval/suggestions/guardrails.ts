import type { GuardrailFlag } from "./schemas";
import type { Tier } from "../runs/schemas";
import { allArrays, firstArray, itemNames } from "./json-path";

/**
 * Guardrail flags from an execution (pure). Inputs are the item's answer, payload, status and, for in-platform
 * runs, the runtime's steps. Pasted answers have no steps, so the tool-based flags (no_query, empty_items from
 * results, fabricated_items) are not computed for them.
 */
export type StepLike = { nodeId?: string; type: string; status: string; output?: unknown };
export type Flag = { flag: GuardrailFlag; message: string };
export type GuardrailInput = {
  tier: Tier;
  answer: string;
  payload: Record<string, unknown> | null;
  failed: boolean;
  error?: string | null;
  steps?: StepLike[] | null;
  /** the workflow has http nodes (so a pipeline tier is expected to query) */
  hasHttpNodes?: boolean;
};

const REFUSAL = [
  /^\s*(i'?m|i am)\s+(sorry|afraid)\b[^.]{0,80}\b(can(?:no|')t|unable|not able)\b/i,
  /^\s*(sorry|unfortunately)[,!.]?\s[^.]{0,80}\b(can(?:no|')t|unable|not able)\b/i,
  /\b(i|we)\s+(can(?:no|')t|am unable to|are unable to|won'?t)\s+(help|assist|answer|provide|do that)\b/i,
  /\bas an ai\b/i,
  /^\s*(抱歉|对不起|很抱歉|不好意思)[，,。!！\s]*[^。]{0,40}(无法|不能|没法|不可以)/,
  /(我|本助手)(无法|不能|没法)(回答|提供|帮助|处理|协助)/,
  /超出了?我的(能力|服务)范围/,
];

export function isRefusal(answer: string): boolean {
  const text = answer.trim();
  if (!text) return false;
  // a long, substantive answer that apologises once is not a refusal
  if ([...text].length > 400) return false;
  return REFUSAL.some((re) => re.test(text));
}

/** NFKC, lower case, without spaces, punctuation and symbols: "Mapo Tofu!" and "mapo tofu" compare equal. */
export function compactName(s: string): string {
  return s
    .normalize("NFKC")
    .toLocaleLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, "");
}

/** Names listed as bullet lines in an answer ("1. 豆浆 - 3元", "- Pancakes: ..."), up to the first separator. */
export function listedNames(answer: string): string[] {
  const out: string[] = [];
  for (const line of answer.split(/\n/)) {
    const m = /^\s*(?:[-*•·]|\d+[.)、．]|[（(]\d+[)）])\s*(?:\*\*)?([^:：,，(（\-—|*]{1,40})/.exec(line);
    const name = m?.[1]?.trim();
    if (name) out.push(name);
  }
  return out;
}

function httpSteps(steps: StepLike[]): StepLike[] {
  return steps.filter((s) => s.type === "http");
}

function succeededQuery(s: StepLike): boolean {
  if (s.status !== "succeeded") return false;
  const ok = (s.output as { ok?: unknown } | undefined)?.ok;
  return ok !== false;
}

function resultOf(s: StepLike): unknown {
  const out = s.output as { result?: unknown } | undefined;
  return out && typeof out === "object" && "result" in out ? out.result : s.output;
}

export function computeFlags(input: GuardrailInput): Flag[] {
  const flags: Flag[] = [];
  const answer = input.answer ?? "";
  if (input.failed || input.error)
    flags.push({
      flag: "execution_error",
      message: input.error ? `execution error: ${input.error.slice(0, 200)}` : "the execution failed",
    });
  const payloadList = input.payload ? firstArray(input.payload) : null;
  if (!answer.trim() && !payloadList?.items.length)
    flags.push({ flag: "empty_answer", message: "the answer is empty" });
  if (isRefusal(answer)) flags.push({ flag: "refusal", message: "the answer refuses or declines" });

  const steps = input.steps;
  if (!steps || input.tier === "invoke") return flags;
  const http = httpSteps(steps);
  const queried = http.filter(succeededQuery);
  if ((input.hasHttpNodes || http.length > 0) && queried.length === 0) {
    flags.push({
      flag: "no_query",
      message: http.length
        ? `no http query succeeded (${http.length} http step(s) failed or skipped)`
        : "no http query was performed",
    });
  }
  const results = queried.map(resultOf);
  const arrays = results.flatMap((r) => allArrays(r));
  if (input.tier === "pipeline_live") {
    const resultsEmpty = queried.length > 0 && arrays.length > 0 && arrays.every((a) => a.length === 0);
    const payloadEmpty = payloadList !== null && payloadList.items.length === 0;
    if (resultsEmpty || payloadEmpty) {
      flags.push({
        flag: "empty_items",
        message: resultsEmpty
          ? "the live query returned no items"
          : `the payload's item list ${payloadList!.path} is empty`,
      });
    }
  }
  // fabricated: only where tool results carry lists to compare with (a health check has none)
  if (queried.length > 0 && arrays.length > 0) {
    const known = results
      .flatMap((r) => itemNames(r))
      .map(compactName)
      .filter(Boolean);
    // Both what the payload carries and what the answer lists: an agent whose payload is the tool result itself
    // (e.g. goods_list = the http result) can still invent items in its text.
    const payloadNames = input.payload ? itemNames(input.payload) : [];
    const claimed = [...new Set([...payloadNames, ...listedNames(answer)])];
    const fabricated = claimed.filter((name) => {
      const c = compactName(name);
      return c.length > 0 && !known.some((k) => k.includes(c) || c.includes(k));
    });
    if (fabricated.length) {
      flags.push({
        flag: "fabricated_items",
        message: `not in any tool result: ${fabricated
          .slice(0, 5)
          .map((n) => `"${n}"`)
          .join(", ")}${fabricated.length > 5 ? ` and ${fabricated.length - 5} more` : ""}`,
      });
    }
  }
  return flags;
}
