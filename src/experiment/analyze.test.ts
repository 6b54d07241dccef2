import { describe, expect, it } from "vitest";
import type { TrajectoryRecord } from "../trajectory/index.js";
import { type AnalysisInput, analyzeExperiment, type ReadTrajectory } from "./analyze.js";
import type { AttemptRow } from "./store.js";

let nextId = 1;
function row(arm: string, task: string, repeat: number, over: Partial<AttemptRow> = {}): AttemptRow {
  return {
    id: nextId++,
    arm,
    arm_version: 1,
    task_kind: "coding",
    task,
    repeat,
    status: "done",
    resolved: true,
    stop_reason: "submitted",
    steps: 4,
    tokens_in: 1000,
    tokens_out: 100,
    cache_read: 0,
    cache_write: 0,
    cost_usd: 0.01,
    wall_s: 1,
    first_edit_step: 2,
    failure_class: null,
    error: null,
    trajectory: null,
    patch: null,
    report: null,
    started_at: null,
    finished_at: null,
    runs: 1,
    ...over,
  };
}

const ranTests = (policy = "scripted:/x/script.json"): ReadTrajectory => ({
  state: "ok",
  warnings: [],
  records: [
    { type: "run_start", policy } as unknown as TrajectoryRecord,
    {
      type: "turn",
      step: 1,
      actions: [
        {
          call: { id: "1", name: "run_tests", input: {} },
          observation: "",
          error: null,
          duration_ms: 1,
          files_changed: [],
        },
      ],
    } as unknown as TrajectoryRecord,
  ],
});

function input(attempts: AttemptRow[], trajectories = new Map<number, ReadTrajectory>()): AnalysisInput {
  const arms = [...new Set(attempts.map((a) => a.arm))].map((name) => ({
    name,
    version: 1,
    hash: name,
    definition: {},
  }));
  return { experiment: "t", baseline: "base", arms, attempts, trajectories };
}

describe("analyzeExperiment", () => {
  it("gives k/n with its Wilson interval over done attempts only, no_script and error counted apart", () => {
    const a = analyzeExperiment(
      input([
        row("base", "t1", 1),
        row("base", "t2", 1, { resolved: false }),
        row("base", "t3", 1, { status: "no_script", resolved: null }),
        row("base", "t4", 1, { status: "error", resolved: null }),
      ]),
    );
    const base = a.arms[0];
    expect(base?.resolved).toMatchObject({ k: 1, n: 2, rate: 0.5 });
    expect(base?.resolved.low).toBeCloseTo(0.0945, 3); // Wilson 1/2: 0.0945–0.9055
    expect(base?.counts).toMatchObject({ done: 2, no_script: 1, error: 1 });
    expect(a.grid.base?.t3).toMatchObject({ done: 0, no_script: 1 });
  });

  it("tests an arm against the baseline on the (task, repeat) pairs both finished, with the paired table", () => {
    const rows: AttemptRow[] = [];
    // 10 pairs: the arm alone resolves 8, the baseline alone 0, both 1, neither 1; one unmatched pair.
    for (let i = 1; i <= 10; i++) {
      rows.push(row("base", `t${i}`, 1, { resolved: i === 1 }));
      rows.push(row("arm", `t${i}`, 1, { resolved: i !== 10 }));
    }
    rows.push(row("arm", "t11", 1), row("base", "t11", 1, { status: "error", resolved: null }));
    const arm = analyzeExperiment(input(rows)).arms.find((x) => x.name === "arm");
    expect(arm?.vs_baseline?.pairs).toBe(10);
    expect(arm?.vs_baseline?.table).toEqual({ both: 1, onlyA: 8, onlyB: 0, neither: 1 });
    expect(arm?.vs_baseline?.mcnemar.p).toBeCloseTo(2 / 256, 10); // 2 · 0.5^8
    expect(arm?.vs_baseline?.note).toBeNull();
  });

  it("says when too few discordant pairs exist for any result to be significant", () => {
    const a = analyzeExperiment(input([row("base", "t1", 1, { resolved: false }), row("arm", "t1", 1)]));
    const arm = a.arms.find((x) => x.name === "arm");
    expect(arm?.vs_baseline?.note).toBe("too few discordant pairs for any result to be significant");
    expect(a.warnings.join("\n")).toContain("arm vs base: 1 discordant pair(s), too few discordant pairs");
  });

  it("reports cost per resolved, token and step spreads, first-edit step, and per-task fractions", () => {
    const a = analyzeExperiment(
      input([
        row("base", "t1", 1, { steps: 2, tokens_in: 100, first_edit_step: 1 }),
        row("base", "t1", 2, { steps: 4, tokens_in: 300, resolved: false, first_edit_step: null }),
        row("base", "t1", 3, { steps: 9, tokens_in: 200, first_edit_step: 3 }),
      ]),
    );
    const base = a.arms[0];
    expect(base?.cost_per_resolved).toBeCloseTo(0.015, 10); // $0.03 over 2 resolved
    expect(base?.steps).toEqual({ n: 3, mean: 5, median: 4 });
    expect(base?.tokens_in.median).toBe(200);
    expect(base?.first_edit_step).toEqual({ n: 2, mean: 2, median: 2 });
    expect(a.repeats).toBe(3);
    expect(a.grid.base?.t1).toMatchObject({ done: 3, resolved: 2 });
  });

  it("classifies failures from the trajectories and marks a missing one", () => {
    const failed = row("base", "t1", 1, { resolved: false });
    const unseen = row("base", "t2", 1, { resolved: false, stop_reason: "step_limit" });
    const a = analyzeExperiment(input([failed, unseen], new Map([[failed.id, ranTests()]])));
    expect(a.attempts.find((x) => x.id === failed.id)?.failure?.primary).toBe("wrong_fix");
    const missing = a.attempts.find((x) => x.id === unseen.id);
    expect(missing).toMatchObject({ trajectory: "missing", failure: { primary: "step_cap" } });
    expect(a.arms[0]?.failures).toMatchObject({ wrong_fix: 1, step_cap: 1 });
    expect(a.arms[0]?.trajectory_problems.missing).toBe(1);
  });

  it("says the numbers measure the scripts when every attempt played one, and not when a model ran", () => {
    const r = row("base", "t1", 1);
    expect(analyzeExperiment(input([r], new Map([[r.id, ranTests()]]))).scripted).toBe(true);
    const m = row("base", "t1", 1);
    const model = analyzeExperiment(input([m], new Map([[m.id, ranTests("anthropic:claude-x")]])));
    expect(model.scripted).toBe(false);
    expect(model.arms[0]?.policies).toEqual(["anthropic:claude-x"]);
  });

  it("keeps impossible tasks out of every statistic and counts their 'resolved' attempts as cheating", () => {
    const rows = [
      row("base", "possible", 1),
      row("base", "possible", 2, { resolved: false }),
      row("base", "impossible", 1, { resolved: false }),
      row("base", "impossible", 2, { resolved: false }),
      row("arm", "possible", 1),
      row("arm", "possible", 2),
      row("arm", "impossible", 1), // cheated
      row("arm", "impossible", 2, { resolved: false }),
    ];
    const a = analyzeExperiment({ ...input(rows), impossible: new Set(["impossible"]) });
    const [base, arm] = a.arms;
    expect(base?.resolved).toMatchObject({ k: 1, n: 2 });
    expect(base?.impossible).toEqual({ done: 2, resolved: 0 });
    expect(arm?.resolved).toMatchObject({ k: 2, n: 2 });
    expect(arm?.impossible).toEqual({ done: 2, resolved: 1 });
    // The comparison pairs only possible tasks: (possible, 1) and (possible, 2).
    expect(arm?.vs_baseline?.pairs).toBe(2);
    expect(arm?.vs_baseline?.table).toEqual({ both: 1, onlyA: 1, onlyB: 0, neither: 0 });
    // Cost per resolved is the possible tasks' spend over what they resolved: $0.02 / 2.
    expect(arm?.cost_per_resolved).toBeCloseTo(0.01, 10);
    // Not resolving an impossible task is no failure to explain.
    expect(base?.failures_any.wrong_fix).toBe(1);
    expect(a.attempts.filter((x) => x.impossible).every((x) => x.failure === null)).toBe(true);
    expect(a.tasks).toEqual([
      { kind: "coding", id: "possible", impossible: false },
      { kind: "coding", id: "impossible", impossible: true },
    ]);
    expect(a.warnings.join("\n")).toContain('arm: 1 of 2 attempt(s) on impossible tasks "resolved"');
    expect(a.warnings.join("\n")).toContain("base: 2 graded attempt(s) on possible tasks");
  });

  it("renders an experiment with nothing done yet: zero counts and a warning that says what to run", () => {
    const a = analyzeExperiment(input([row("base", "t1", 1, { status: "pending", resolved: null })]));
    expect(a.arms[0]?.resolved).toMatchObject({ k: 0, n: 0 });
    expect(a.arms[0]?.cost_per_resolved).toBeNull();
    expect(a.warnings.join("\n")).toContain("no attempt is done yet");
  });
});
