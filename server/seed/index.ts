import type { Db } from "../db/client";
import { createAgent, publishVersion } from "../agents/service";
import { createSet, freezeVersion } from "../eval/sets/sets";
import { importSamples } from "../eval/sets/samples";
import agent from "./meal-recommendation/agent.json";
import golden from "./meal-recommendation/golden-set.json";

export const SAMPLE_AGENT_NAME = agent.name;

/**
 * The sample agent "Meal recommendation" (it calls the meal-scenes sample app through WEBHOOK_BASE_URL) with its
 * frozen golden set (30 questions, 2 multi-turn scripts, gate 26 of 30), published for online chat. Idempotent:
 * nothing happens when an agent of that name exists. Returns the ids, or null when it already existed.
 */
export async function seedSampleAgent(db: Db, log: (line: string) => void = console.log) {
  if (await db.agent.findFirst({ where: { name: agent.name }, select: { id: true } })) return null;
  const created = await createAgent(
    db,
    { name: agent.name, description: agent.description, workflow: agent.workflow, note: "seeded sample agent" },
    null,
    {
      // the workflow's http node is relative; warnings about an unset base URL are fine for a seed
      webhookBaseUrl: process.env.WEBHOOK_BASE_URL || "http://127.0.0.1:8000",
    },
  );
  await publishVersion(db, created.agent.id, 1);
  const set = await createSet(
    db,
    { agentId: created.agent.id, name: golden.name, kind: "golden", gateThreshold: golden.gateThreshold },
    null,
  );
  await importSamples(db, set.id, 1, { format: "json", content: JSON.stringify(golden.samples), mode: "replace" });
  await freezeVersion(db, set.id, 1, null);
  log(
    `[flowbench] seeded the sample agent "${agent.name}" (${created.agent.id}) and its frozen golden set (${set.id}, 30 questions, gate 26)`,
  );
  return { agentId: created.agent.id, setId: set.id };
}
