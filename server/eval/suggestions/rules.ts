import type { Assertion } from "./schemas";
import { firstArray, getPath, isEmptyValue, jsonEqual } from "./json-path";

/**
 * Rule assertions (machine suggestions, never counted by a gate). Pure. Set-level assertions apply to every
 * sample; per-sample assertions add to them.
 */
export type RuleResult = {
  type: Assertion["type"];
  label: string;
  passed: boolean;
  message: string;
  scope: "set" | "sample";
};

export type RuleTarget = { answer: string; payload: Record<string, unknown> | null };

function label(a: Assertion): string {
  if (a.name) return a.name;
  switch (a.type) {
    case "contains":
    case "icontains":
    case "not-contains":
    case "not-icontains":
      return `${a.type} "${a.value}"`;
    case "regex":
      return `regex /${a.value}/${a.flags ?? ""}`;
    case "is-json":
      return "is-json";
    case "json-path-equals":
      return `${a.source}${a.path.startsWith("$") ? a.path.slice(1) : `.${a.path}`} == ${JSON.stringify(a.value)}`;
    case "json-path-nonempty":
      return `${a.source}${a.path.startsWith("$") ? a.path.slice(1) : `.${a.path}`} non-empty`;
    case "max-length":
    case "min-length":
      return `${a.type} ${a.value}`;
    case "payload-items-nonempty":
      return `payload items non-empty${a.path ? ` (${a.path})` : ""}`;
  }
}

function jsonSource(
  a: { source: "payload" | "answer" },
  t: RuleTarget,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (a.source === "payload")
    return t.payload ? { ok: true, value: t.payload } : { ok: false, message: "no structured payload" };
  try {
    return { ok: true, value: JSON.parse(t.answer) };
  } catch {
    return { ok: false, message: "the answer is not JSON" };
  }
}

export function evaluateAssertion(a: Assertion, t: RuleTarget): { passed: boolean; message: string } {
  const answer = t.answer ?? "";
  switch (a.type) {
    case "contains":
      return answer.includes(a.value)
        ? { passed: true, message: "found" }
        : { passed: false, message: `the answer does not contain "${a.value}"` };
    case "icontains":
      return answer.toLocaleLowerCase().includes(a.value.toLocaleLowerCase())
        ? { passed: true, message: "found" }
        : { passed: false, message: `the answer does not contain "${a.value}" (any case)` };
    case "not-contains":
      return answer.includes(a.value)
        ? { passed: false, message: `the answer contains "${a.value}"` }
        : { passed: true, message: "absent" };
    case "not-icontains":
      return answer.toLocaleLowerCase().includes(a.value.toLocaleLowerCase())
        ? { passed: false, message: `the answer contains "${a.value}" (any case)` }
        : { passed: true, message: "absent" };
    case "regex": {
      const re = new RegExp(a.value, a.flags);
      return re.test(answer)
        ? { passed: true, message: "matched" }
        : { passed: false, message: `the answer does not match /${a.value}/${a.flags ?? ""}` };
    }
    case "is-json":
      try {
        JSON.parse(answer);
        return { passed: true, message: "valid JSON" };
      } catch (e) {
        return { passed: false, message: `the answer is not JSON: ${(e as Error).message}` };
      }
    case "json-path-equals": {
      const src = jsonSource(a, t);
      if (!src.ok) return { passed: false, message: src.message };
      const got = getPath(src.value, a.path);
      if (!got.found) return { passed: false, message: `${a.path} not found` };
      return jsonEqual(got.value, a.value)
        ? { passed: true, message: "equal" }
        : {
            passed: false,
            message: `${a.path} is ${JSON.stringify(got.value)?.slice(0, 200)}, expected ${JSON.stringify(a.value)?.slice(0, 200)}`,
          };
    }
    case "json-path-nonempty": {
      const src = jsonSource(a, t);
      if (!src.ok) return { passed: false, message: src.message };
      const got = getPath(src.value, a.path);
      if (!got.found) return { passed: false, message: `${a.path} not found` };
      return isEmptyValue(got.value)
        ? { passed: false, message: `${a.path} is empty` }
        : { passed: true, message: "non-empty" };
    }
    case "max-length": {
      const n = [...answer].length;
      return n <= a.value
        ? { passed: true, message: `${n} characters` }
        : { passed: false, message: `${n} characters, more than ${a.value}` };
    }
    case "min-length": {
      const n = [...answer].length;
      return n >= a.value
        ? { passed: true, message: `${n} characters` }
        : { passed: false, message: `${n} characters, fewer than ${a.value}` };
    }
    case "payload-items-nonempty": {
      if (!t.payload) return { passed: false, message: "no structured payload" };
      const list = a.path
        ? getPath(t.payload, a.path)
        : (() => {
            const f = firstArray(t.payload);
            return f ? { found: true, value: f.items } : { found: false, value: undefined };
          })();
      if (!list.found || !Array.isArray(list.value))
        return { passed: false, message: a.path ? `${a.path} is not a list` : "the payload has no item list" };
      return list.value.length > 0
        ? { passed: true, message: `${list.value.length} items` }
        : { passed: false, message: "the item list is empty" };
    }
  }
}

/** Evaluates set-level then sample-level assertions. */
export function evaluateAssertions(
  setLevel: Assertion[] | null | undefined,
  sampleLevel: Assertion[] | null | undefined,
  t: RuleTarget,
): RuleResult[] {
  const out: RuleResult[] = [];
  for (const [scope, list] of [
    ["set", setLevel],
    ["sample", sampleLevel],
  ] as const) {
    for (const a of list ?? []) {
      const r = evaluateAssertion(a, t);
      out.push({ type: a.type, label: label(a), passed: r.passed, message: r.message, scope });
    }
  }
  return out;
}
