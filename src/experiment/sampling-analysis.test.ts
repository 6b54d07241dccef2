/** analyzeSampling on hand-made rows: the numbers each chain must produce, and what it says when it cannot. */
import { describe, expect, it } from "vitest";
import { bonCurve } from "../stats/index.js";
import {
  analyzeSampling,
  type EvidenceCandidateRow,
  type EvidenceGroupRow,
  fitVerifier,
} from "./sampling-analysis.js";
import type { AttemptRow } from "./store.js";

let nextId = 1;
function row(
  task: string,
  repeat: number,
  resolved: boolean,
  status: AttemptRow["status"] = "done",
): AttemptRow {
  return {
    id: nextId++,
    arm: "a",
    arm_version: 1,
    task_kind: "coding",
    task,
    repeat,
    status,
    resolved: status === "done" ? resolved : null,
    cost_usd: 0.5,
    runs: 1,
  } as AttemptRow;
}

function evidence(rows: AttemptRow[], each: Omit<EvidenceCandidateRow, "attempt_id">[]) {
  const group: EvidenceGroupRow = {
    arm: "a",
    arm_version: 1,
    task_kind: "coding",
    task: rows[0]?.task ?? "",
    attempt_ids: rows.map((r): [number, number] => [r.id, r.runs]),
    tests: true,
    normalised: true,
    verifier: null,
    verifier_calls: null,
    verifier_unparsable: null,
    verifier_cost: null,
    base_passing: 10,
    reproductions: 1,
    base_error: null,
  };
  return {
    group,
    candidates: rows.map((r, i) => ({
      attempt_id: r.id,
      ...(each[i] as Omit<EvidenceCandidateRow, "attempt_id">),
    })),
  };
}

const ok = (key: string, regressions = 0, repro = 1, score: number | null = null) => ({
  has_patch: true,
  normalised: key,
  applied: true,
  regressions,
  reproductions_passed: repro,
  score,
});

describe("analyzeSampling", () => {
  // Task t1: sample 1 breaks a test, 2 and 3 are one fix written twice (resolved), 4 is wrong.
  const t1 = [row("t1", 1, false), row("t1", 2, true), row("t1", 3, true), row("t1", 4, false)];
  const e1 = evidence(t1, [ok("x", 2), ok("y"), ok("y"), ok("z", 0, 0)]);
  // Task t2: no candidate's patch applies.
  const t2 = [row("t2", 1, false), row("t2", 2, false), row("t2", 3, false), row("t2", 4, false)];
  const none = {
    has_patch: true,
    normalised: "n",
    applied: false,
    regressions: 0,
    reproductions_passed: 0,
    score: null,
  };
  const e2 = evidence(t2, [none, none, none, none]);
  // Task t3: one sample errored: left out.
  const t3 = [row("t3", 1, true), row("t3", 2, true), row("t3", 3, true), row("t3", 4, false, "error")];
  const rows = [...t1, ...t2, ...t3];
  const stored = {
    groups: [e1.group, e2.group],
    candidates: new Map([...e1.candidates, ...e2.candidates].map((c) => [c.attempt_id, c])),
  };
  const selectors = ["oracle", "vote", "regression>reproduction>vote"];
  const [arm] = analyzeSampling({ samples: 4, selectors }, [{ name: "a", version: 1 }], rows, stored).arms;

  it("counts coverage with the unbiased estimator over complete tasks only", () => {
    expect(arm?.tasks).toBe(2);
    expect(arm?.incomplete).toEqual(["t3"]);
    // t1: c = 2 of n = 4 → pass@1 = 0.5, pass@2 = 1 − C(2,2)/C(4,2) = 5/6; t2: 0.
    expect(arm?.passAtK[0]).toBeCloseTo(0.25, 12);
    expect(arm?.passAtK[1]).toBeCloseTo(5 / 12, 12);
    expect(arm?.passAtK[3]).toBe(0.5);
    expect(arm?.dollarsPerSelected).toEqual([0.5, 1, 1.5, 2]);
  });

  it("measures each chain on the first k samples, and says where nothing could be submitted", () => {
    const byChain = Object.fromEntries((arm?.selectors ?? []).map((s) => [s.chain, s]));
    const rates = (spec: string) => {
      const s = byChain[spec];
      if (!s || s.error !== undefined) throw new Error(`no curve for ${spec}`);
      return s.bestOfK.map((p) => `${p.resolved}/${p.n}`);
    };
    expect(rates("oracle")).toEqual(["0/2", "1/2", "1/2", "1/2"]);
    // vote at k = 2: x and y tie, the earliest (x, wrong) wins; at 3, y has two votes.
    expect(rates("vote")).toEqual(["0/2", "0/2", "1/2", "1/2"]);
    // regression drops sample 1 as soon as there is another to keep.
    expect(rates("regression>reproduction>vote")).toEqual(["0/2", "1/2", "1/2", "1/2"]);
    const chain = byChain["regression>reproduction>vote"];
    expect(chain?.error === undefined && chain?.nothingSubmitted).toBe(1);
    expect(chain?.error === undefined && chain?.gap).toBe(0);
  });

  it("names the missing evidence, and a base the tests could not run at, instead of a curve", () => {
    const broken = { ...e1.group, base_error: "infrastructure_error: pytest is not installed" };
    const [a] = analyzeSampling(
      { samples: 4, selectors: ["regression", "vote"] },
      [{ name: "a", version: 1 }],
      t1,
      { groups: [broken], candidates: stored.candidates },
    ).arms;
    expect(a?.selectors.map((s) => s.error ?? "curve")).toEqual([
      "the visible tests could not be run at the base of t1 (infrastructure_error: pytest is not installed)",
      "curve",
    ]);
    // Evidence of other attempts (a sample run again since) is stale: not used.
    // A sample run again since (one more start): its old evidence is not used.
    const [first, ...rest] = e1.group.attempt_ids;
    const stale = { ...e1.group, attempt_ids: [[first?.[0] ?? 0, 2] as [number, number], ...rest] };
    const [b] = analyzeSampling({ samples: 4, selectors: ["vote"] }, [{ name: "a", version: 1 }], t1, {
      groups: [stale],
      candidates: stored.candidates,
    }).arms;
    expect(b?.selectors[0]?.error).toMatch(/normalised patch, and the run kept none/);
  });

  it("ranks by the verifier's score (an unparsable reply last), and fits seed 000's model to the scores", () => {
    // Scores: the wrong candidates 0.2 and 0.4, the right ones 0.7 and 0.9; sample 1's reply had no score.
    const t = [row("v", 1, false), row("v", 2, true), row("v", 3, false), row("v", 4, true)];
    const e = evidence(t, [ok("a", 0, 0, null), ok("b", 0, 0, 0.7), ok("c", 0, 0, 0.4), ok("d", 0, 0, 0.9)]);
    const group = {
      ...e.group,
      verifier: "openai:judge",
      verifier_calls: 4,
      verifier_unparsable: 1,
      verifier_cost: 0.02,
    };
    const [a] = analyzeSampling(
      { samples: 4, selectors: ["verifier"], verifier: "openai:judge" },
      [{ name: "a", version: 1 }],
      t,
      { groups: [group], candidates: new Map(e.candidates.map((c) => [c.attempt_id, c])) },
    ).arms;
    const chain = a?.selectors[0];
    if (!chain || chain.error !== undefined) throw new Error("no verifier curve");
    // k = 1: only the unparsable sample 1 (wrong); k = 2: 0.7 beats null; k = 4: 0.9.
    expect(chain.bestOfK.map((p) => p.resolved)).toEqual([0, 1, 1, 1]);
    expect(a?.verifier).toMatchObject({ spec: "openai:judge", calls: 4, unparsable: 1, cost_usd: 0.02 });
    // Only the scored candidates fit: right {0.7, 0.9}, wrong {0.4}: margin 0.4, pooled sd √(0.02/1).
    expect(a?.verifier?.fit?.margin).toBeCloseTo(0.4, 12);
    expect(a?.verifier?.fit?.sigma).toBeCloseTo(Math.sqrt(0.02), 12);
    const expected = bonCurve([0.5], 4, 0.4, Math.sqrt(0.02)).bon;
    for (const [k, v] of expected.entries()) expect(a?.verifier?.fit?.predicted[k]).toBeCloseTo(v, 9);
  });

  it("fits nothing without scores of both kinds", () => {
    expect(fitVerifier([{ score: 0.9, resolved: true }])).toBeNull();
    expect(
      fitVerifier([
        { score: 0.9, resolved: true },
        { score: 0.1, resolved: false },
      ]),
    ).toEqual({ margin: 0.8, sigma: 0 });
  });
});
