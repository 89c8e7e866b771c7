import { describe, expect, it } from "vitest";
import { checkWaveCSize } from "./wave-c";

describe("check_eval_wave_c_size rule", () => {
  const sample = (i: number, script = false) => ({
    key: `q${i}`,
    expectedPoints: ["p"],
    script: script ? [{}, {}] : null,
  });
  it("30 questions, >= 2 multi-turn, all with points, threshold 26", () => {
    const ok = checkWaveCSize({
      setName: "S",
      setKind: "golden",
      version: 1,
      status: "frozen",
      gateThreshold: 26,
      samples: Array.from({ length: 30 }, (_, i) => sample(i, i < 2)),
    });
    expect(ok.passed).toBe(true);
    const bad = checkWaveCSize({
      setName: "S",
      setKind: "golden",
      version: 1,
      status: "draft",
      gateThreshold: 24,
      samples: [
        ...Array.from({ length: 28 }, (_, i) => sample(i, i < 1)),
        { key: "x", expectedPoints: [], script: null },
      ],
    });
    expect(bad.passed).toBe(false);
    expect(bad.problems).toHaveLength(5);
  });
});
