/**
 * The demo's candidate scene detector (npm run demo:online-loop; the intent-shadow browser test uses it too): the
 * published workflow with its code node detect_scene replaced by a detector written whole here (not an edit of the
 * live code), which calls "morning" questions brunch ahead of the seeded detector's scenes; the node's inputs (question,
 * history) stay the published version's.
 */
export const DEMO_DETECTOR = `# Demo candidate (npm run demo:online-loop): morning questions are "brunch", the rest as the seeded detector.
import re

SCENES = [
    ("brunch", ["morning", "brunch", "早上", "上午"]),
    ("late-night-snack", ["late-night", "late night", "midnight", "night snack", "夜宵", "宵夜", "深夜", "半夜"]),
    ("afternoon-tea", ["afternoon", "afternoon tea", "dim sum", "下午茶", "下午", "点心"]),
    ("breakfast", ["breakfast", "早餐", "早饭", "早点"]),
    ("business-lunch", ["lunch", "午餐", "午饭", "中午", "工作餐"]),
    ("family-dinner", ["dinner", "supper", "family", "晚餐", "晚饭", "晚上", "家庭", "聚餐"]),
]

def detect(text):
    lowered = (text or "").lower()
    for scene, words in SCENES:
        for word in words:
            found = re.search(r"\\b" + re.escape(word) + r"\\b", lowered) if word.isascii() else word in lowered
            if found:
                return scene, word
    return "", ""

scene, keyword = detect(inputs.get("question"))
source = "question"
if not scene:
    source = "history"
    for line in reversed((inputs.get("history") or "").splitlines()):
        scene, keyword = detect(line)
        if scene:
            break

result = {"scene": scene, "keyword": keyword, "source": source if scene else "none"}
`;

type Node = { id: string; type: string; config: Record<string, unknown> };

/** The candidate built from the live workflow, or why it cannot be built (no code node detect_scene, or no difference). */
export function demoCandidate<W extends { nodes: Node[] }>(
  live: W,
): { ok: true; workflow: W } | { ok: false; reason: string } {
  const workflow = structuredClone(live);
  const detect = workflow.nodes.find((n) => n.id === "detect_scene");
  if (detect?.type !== "code")
    return { ok: false, reason: "it has no code node detect_scene: the demo's candidate replaces that scene detector" };
  if (detect.config.code === DEMO_DETECTOR)
    return { ok: false, reason: "its scene detector already is the demo's candidate: nothing to compare" };
  detect.config = { ...detect.config, code: DEMO_DETECTOR };
  return { ok: true, workflow };
}
