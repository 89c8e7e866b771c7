import { describe, expect, it } from "vitest";
import { FINDING_CODES, FINDING_CODE_LIST, type FindingCode } from "./codes";
import { FINDING_FIXTURES } from "./fixtures";
import { validateWorkflowRequest } from "./validate";

const all = (body: unknown, opts = {}) => {
  const r = validateWorkflowRequest(body, opts);
  return [...r.errors, ...r.warnings];
};

describe("finding codes", () => {
  it("are SCREAMING_SNAKE with a severity and a description", () => {
    for (const [code, info] of Object.entries(FINDING_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/);
      expect(["error", "warning"]).toContain(info.severity);
      expect(info.description.length).toBeGreaterThan(10);
    }
  });

  it("every code has a fixture", () => {
    const missing = FINDING_CODE_LIST.filter((code) => !(code in FINDING_FIXTURES));
    expect(missing).toEqual([]);
    expect(Object.keys(FINDING_FIXTURES).sort()).toEqual([...FINDING_CODE_LIST].sort());
  });

  describe.each(FINDING_CODE_LIST.map((code) => [code] as [FindingCode]))("%s", (code) => {
    const fixture = FINDING_FIXTURES[code];
    const severity = FINDING_CODES[code].severity;

    // Codes of the async validator (fixture.sandbox set) are asserted by server/runtime/validate-code.test.ts.
    it.skipIf(fixture.sandbox !== undefined)("is produced by its trigger body", () => {
      const result = validateWorkflowRequest(fixture.trigger, fixture.opts ?? {});
      const list = severity === "error" ? result.errors : result.warnings;
      const hits = list.filter((f) => f.code === code);
      expect(hits.length, JSON.stringify(result, null, 1).slice(0, 2000)).toBeGreaterThan(0);
      if (severity === "error") expect(result.valid).toBe(false);
      for (const hit of hits) {
        expect(hit.severity).toBe(severity);
        expect(hit.message).toMatch(/\.$/);
        expect(hit.path === "" || hit.path.startsWith("/")).toBe(true);
      }
      if (fixture.path !== undefined) expect(hits.map((h) => h.path)).toContain(fixture.path);
      if (fixture.nodeId !== undefined) expect(hits.map((h) => h.nodeId)).toContain(fixture.nodeId);
    });

    it("is not produced by its clean body", () => {
      expect(all(fixture.clean, fixture.opts ?? {}).filter((f) => f.code === code)).toEqual([]);
    });
  });
});
