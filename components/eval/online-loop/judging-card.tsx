"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Field, inputClass } from "@/components/ui/field";
import { deniedReason, useCaps } from "../context";
import { ago } from "../format";
import type { OnlineJudging } from "../types";
import { useOnlineJudging } from "./use-online-judging";

type Judging = OnlineJudging;
type Rule = NonNullable<Judging["rule"]>;

/** The judge choice as one select value: `llm` or `agent:<agentId>@<version>`. */
const judgeValue = (j: Rule["judge"] | undefined) =>
  !j || j.type !== "agent" ? "llm" : `agent:${j.agentId}@${j.version}`;

/**
 * The online judging rule of the agent: on/off, the share of online answers judged, the judge (the LLM judge's
 * reference-free rubric or a judge agent; never the built-in judge, which needs expected points), and the filters.
 * Judged fails and unknowns join the leads below with the signals "Judge: fail" / "Judge: unknown".
 */
export function JudgingCard({ agentId }: { agentId: string }) {
  const { judging, judgeAgents, save } = useOnlineJudging(agentId);
  const data = judging.data;
  return (
    <Card
      title="Online judging"
      description="A judge looks at a sample of the online answers in the background, after the user got the answer."
    >
      {judging.error ? (
        <ErrorState error={judging.error} onRetry={() => judging.refetch()} />
      ) : !data ? (
        <LoadingRows rows={3} label="Loading the judging rule" />
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-600">
            Last 7 days: {data.last7Days.judged} judged — {data.last7Days.fail} fail, {data.last7Days.unknown} unknown,{" "}
            {data.last7Days.pass} pass.
            {data.rule ? ` Saved ${ago(data.rule.updatedAt)}.` : " No rule yet."}
          </p>
          <JudgingForm
            key={data.rule ? String(data.rule.updatedAt) : "new"}
            agentId={agentId}
            rule={data.rule}
            judgeAgents={judgeAgents}
            save={save}
          />
        </>
      )}
    </Card>
  );
}

function JudgingForm({
  agentId,
  rule,
  judgeAgents,
  save,
}: {
  agentId: string;
  rule: Rule | null;
  judgeAgents: ReturnType<typeof useOnlineJudging>["judgeAgents"];
  save: ReturnType<typeof useOnlineJudging>["save"];
}) {
  const { caps, role } = useCaps();
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [percent, setPercent] = useState(String(Math.round((rule?.samplingRate ?? 0.1) * 1000) / 10));
  const [judge, setJudge] = useState(judgeValue(rule?.judge));
  const [source, setSource] = useState(rule?.filters.source ?? "");
  const [minLength, setMinLength] = useState(rule?.filters.minLength ? String(rule.filters.minLength) : "");
  const [scenarioRef, setScenarioRef] = useState(rule?.filters.scenario?.ref ?? "");
  const [scenarioValues, setScenarioValues] = useState(rule?.filters.scenario?.values.join(", ") ?? "");
  const rate = Number(percent) / 100;
  const rateError = percent.trim() === "" || !(rate >= 0 && rate <= 1) ? "A share from 0 to 100 %" : undefined;
  const values = scenarioValues
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  const scenarioError =
    (scenarioRef.trim() && !values.length) || (!scenarioRef.trim() && values.length)
      ? "Give both the template and the scenarios, or neither"
      : undefined;
  // a judge agent named by the rule but no longer listed stays a choice (its label from the server)
  const options = [
    { value: "llm", label: "LLM judge (reference-free rubric)" },
    ...judgeAgents.map((a) => ({ value: `agent:${a.id}@${a.latestVersion}`, label: `${a.name} v${a.latestVersion}` })),
  ];
  if (!options.some((o) => o.value === judge) && rule) options.push({ value: judge, label: rule.judgeLabel });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (rateError || scenarioError) return;
    const m = /^agent:(.+)@(\d+)$/.exec(judge);
    save.mutate({
      agentId,
      body: {
        samplingRate: rate,
        enabled,
        judge: m ? { type: "agent", agentId: m[1]!, version: Number(m[2]) } : { type: "llm" },
        filters: {
          ...(source ? { source: source as "chat" | "api" } : {}),
          ...(minLength.trim() ? { minLength: Number(minLength) } : {}),
          ...(scenarioRef.trim() && values.length ? { scenario: { ref: scenarioRef.trim(), values } } : {}),
        },
      },
    });
  }

  const denied = caps.manage ? undefined : deniedReason(role, "manage");
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Online judging rule">
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
          className="size-4 rounded border-slate-300"
        />
        Judge sampled online answers
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Share judged (%)" error={rateError} hint="Decided per answer from its trace id">
          <input
            className={inputClass}
            type="number"
            min={0}
            max={100}
            step="any"
            value={percent}
            onChange={(e) => setPercent(e.target.value)}
          />
        </Field>
        <Field label="Judge" hint="The built-in judge needs expected points, which online answers lack">
          <select className={inputClass} value={judge} onChange={(e) => setJudge(e.target.value)}>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Source">
          <select className={inputClass} value={source} onChange={(e) => setSource(e.target.value)}>
            <option value="">Chat and API</option>
            <option value="chat">Chat only</option>
            <option value="api">API only</option>
          </select>
        </Field>
        <Field label="Shortest user message" hint="Characters; skips greetings and thanks">
          <input
            className={inputClass}
            type="number"
            min={0}
            value={minLength}
            placeholder="Any length"
            onChange={(e) => setMinLength(e.target.value)}
          />
        </Field>
        <Field label="Scenario template" hint="Where a trace says its scenario, e.g. {{detect.result.scene}}">
          <input className={inputClass} value={scenarioRef} onChange={(e) => setScenarioRef(e.target.value)} />
        </Field>
        <Field label="Scenarios judged" error={scenarioError} hint="Comma-separated; empty: every scenario">
          <input className={inputClass} value={scenarioValues} onChange={(e) => setScenarioValues(e.target.value)} />
        </Field>
      </div>
      <div className="flex justify-end">
        <Button
          type="submit"
          disabled={!caps.manage || save.isPending || !!rateError || !!scenarioError}
          title={denied}
        >
          {save.isPending ? "Saving…" : "Save judging"}
        </Button>
      </div>
    </form>
  );
}
