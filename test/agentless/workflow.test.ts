/**
 * `--policy agentless:…` end to end and offline: the recorded model server answers each stage on the
 * real OpenAI wire format, and each task runs through the real run contract (runAnyTask), the sandbox,
 * select's evidence and the hidden-test grader. The recordings' repair candidates are of mixed quality
 * (each file's header says which is which), so these runs show validation and the vote choosing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentlessActor } from "../../src/agentless/index.js";
import { type RecordedAgentless, startRecordedAgentless } from "../../src/agentless/testing.js";
import { OpenAIPolicy } from "../../src/policies/index.js";
import { issueHash, type Recording } from "../../src/policies/testing/recorded.js";
import { actorOf, type CodingRunResult, codingRun, runKind, toolsRun } from "../../src/run/index.js";
import { acmeTask, loadTask } from "../../src/tasks/index.js";
import type { StageRecord, TrajectoryRecord, TurnRecord } from "../../src/trajectory/index.js";
import { readTrajectory } from "../../src/trajectory/index.js";

const dir = mkdtempSync(join(tmpdir(), "acilab-agentless-"));
let rec: RecordedAgentless;

/** Answers for tasks without a recording file: the bad-input cases. */
function answers(
  task: string,
  stage: string,
  ...texts: (string | { status: number; message: string })[]
): Recording {
  return {
    stage,
    task,
    issueHash: issueHash(loadTask(task).issue),
    answers: texts.map((t) => (typeof t === "string" ? { text: t } : t)),
  };
}
const NOT_FOUND = (n: number) =>
  `### textstats/core.py\n<<<<<<< SEARCH\n    return total / count  # ${n}\n=======\n    return 0\n>>>>>>> REPLACE`;

beforeAll(async () => {
  rec = await startRecordedAgentless(undefined, [
    answers("concordance-context", "localise-files", "The bug is somewhere in the statistics, I think."),
    answers("reading-ease", "localise-files", "textstats/core.py"),
    answers("reading-ease", "localise-units", "textstats/core.py: mean"),
    answers("reading-ease", "localise-lines", "textstats/core.py: 29-36"),
    answers("reading-ease", "repair", NOT_FOUND(1), NOT_FOUND(2)),
    answers("month-rollover", "localise-files", { status: 500, message: "the model server fell over" }),
  ]);
});
afterAll(async () => {
  await rec.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(task: string, policy: string | AgentlessActor) {
  const out = join(dir, `${task}-${Math.random().toString(36).slice(2, 8)}`);
  const result = await runKind(codingRun(loadTask(task), { tools: "full", history: "all" }), {
    ...(typeof policy === "string" ? { actor: actorOf(policy) } : { workflow: policy }),
    out,
  });
  const records = readTrajectory(join(out, "trajectory.jsonl")).records;
  const stages = (name: string) =>
    records.filter((r): r is StageRecord => r.type === "stage" && r.stage === name);
  return { result, records, stages, out };
}
const turns = (records: TrajectoryRecord[]) => records.filter((r): r is TurnRecord => r.type === "turn");

describe("agentless on recorded answers, graded for real", () => {
  // The sample each recording is written to have chosen, and the repair outcome counts it shows.
  it.each([
    ["median-even", 3, { applied: 3, not_applied: 1, malformed: 0 }],
    ["relative-direction", 2, { applied: 3, not_applied: 0, malformed: 1 }],
    ["multimode-ties", 2, { applied: 3, not_applied: 1, malformed: 0 }],
  ])("%s: localises, repairs, validates, votes candidate %i and resolves", async (task, chosen, counts) => {
    const { result, records, stages, out } = await run(task, rec.spec());
    const coding = result as CodingRunResult;
    expect(coding.policy).toBe(rec.spec());
    expect(coding.stop_reason).toBe("submitted");
    expect(coding.resolved).toBe(true);
    // 3 localisation calls, k = 4 repair samples, 1 reproduction test: every one in the ledger.
    expect(coding.steps).toBe(8);
    expect(coding.usage.input).toBeGreaterThan(0);
    expect(coding.cost_usd).toBeGreaterThan(0);
    const calls = turns(records);
    expect(calls.map((t) => (t as unknown as { stage: string }).stage)).toEqual([
      "localise-files",
      "localise-units",
      "localise-lines",
      "repair",
      "repair",
      "repair",
      "repair",
      "reproduce",
    ]);
    for (const t of calls) expect(t.usage.inputTokens * t.usage.outputTokens).toBeGreaterThan(0);
    // Greedy first sample, the rest at the default temperature, as sent on the wire.
    const repairs = rec.server.served.filter(
      (s) => s.key?.startsWith("repair/") && s.key.endsWith(issueHash(loadTask(task).issue)),
    );
    expect(repairs.slice(-4).map((s) => s.temperature)).toEqual([0, 0.8, 0.8, 0.8]);

    expect(stages("repair")[0]?.data.counts as Record<string, number>).toMatchObject(counts);
    const validate = stages("validate")[0];
    expect(validate?.outcome).toBe("ok");
    expect(validate?.data.reproductions).toEqual([expect.stringContaining("test_c0_reproduction.py")]);
    const vote = stages("vote")[0];
    expect(vote?.data.chosen).toBe(chosen);
    expect(vote?.data.chain).toBe("regression>reproduction>vote");
    // What was submitted is the chosen candidate's patch: the one path that grades every run.
    const chosenPatch = readFileSync(join(out, "patch.diff"), "utf8");
    expect(chosenPatch).toContain("+");
    expect(chosenPatch).not.toContain("test_reproduction");
    expect(records.at(-1)).toMatchObject({ type: "run_end", stop_reason: "submitted", steps: 8 });
  });

  it("median-even: the candidate that breaks a visible test is dropped by the regression stage", async () => {
    const { stages } = await run("median-even", rec.spec({ k: 4 }));
    const evidence = stages("validate")[0]?.data.candidates as { sample: number; regressions: number }[];
    expect(evidence.find((c) => c.sample === 1)?.regressions).toBeGreaterThan(0);
    expect(evidence.find((c) => c.sample === 3)?.regressions).toBe(0);
    expect(stages("vote")[0]?.data.kept).toEqual([
      { stage: "regression", left: 2 },
      { stage: "reproduction", left: 2 },
      { stage: "vote", left: 2 },
    ]);
  });
});

describe("agentless on bad answers ends with a reason, never a crash", () => {
  it("a reply that names no file: format_errors, the reason recorded, nothing submitted", async () => {
    const { result, stages } = await run("concordance-context", rec.spec());
    expect(result.stop_reason).toBe("format_errors");
    expect(result.resolved).toBe(false);
    expect(result.detail).toContain("localise-files: the reply names no file");
    expect(stages("localise-files")[0]).toMatchObject({ outcome: "failed" });
    expect(result.steps).toBe(1);
  });

  it("SEARCH text found in no candidate: every one counted as not applied, the run ends format_errors", async () => {
    const { result, stages } = await run("reading-ease", rec.spec({ k: 2 }));
    expect(result.stop_reason).toBe("format_errors");
    expect(result.detail).toContain("none of the 2 candidates applied");
    expect(result.detail).toContain("is not in textstats/core.py");
    expect(stages("repair")[0]?.data.counts).toMatchObject({ applied: 0, not_applied: 2 });
    expect(result.grade.detail).not.toBe("");
  });

  it("a server error: policy_error naming the status, the trajectory kept", async () => {
    const inner = new OpenAIPolicy({
      model: "gpt-4o-mini",
      baseURL: `${rec.server.url}/v1`,
      compatible: true,
      maxRetries: 0,
      spec: `openai-compatible:gpt-4o-mini@${rec.server.url}/v1`,
    });
    const workflow: AgentlessActor = {
      spec: `agentless:${inner.spec}`,
      model: inner,
      settings: { k: 4, temperature: 0.8 },
    };
    const { result, records } = await run("month-rollover", workflow);
    expect(result.stop_reason).toBe("policy_error");
    expect(result.detail).toContain("500");
    expect(records[0]?.type).toBe("run_start");
    expect(records.at(-1)).toMatchObject({ type: "run_end", stop_reason: "policy_error" });
  });

  it("a tool-use task is refused with the policy to use instead", async () => {
    await expect(
      runKind(toolsRun(acmeTask, { actionFormat: "json" }), { actor: actorOf(rec.spec()) }),
    ).rejects.toThrow("is a tool-use task");
  });
});
