import { describe, expect, it } from "vitest";
import { failToPassFraction, groupAdvantages, groupStats, rewardOf } from "./rewards.js";

const report = (success: number, failure: number, extra: Record<string, unknown> = {}) => ({
  t: {
    outcome: "graded",
    rejected: null,
    tests_status: {
      FAIL_TO_PASS: {
        success: Array.from({ length: success }, (_, i) => `ok${i}`),
        failure: Array.from({ length: failure }, (_, i) => `bad${i}`),
      },
    },
    ...extra,
  },
});

describe("groupAdvantages", () => {
  it("divides by the population std: rewards 1, 0, 1 give ±1/√2 and −√2", () => {
    const { kept, dropped } = groupAdvantages([
      { group: "g", reward: 1 },
      { group: "g", reward: 0 },
      { group: "g", reward: 1 },
    ]);
    expect(dropped).toEqual([]);
    expect(kept.map((k) => k.advantage)).toEqual([
      expect.closeTo(Math.SQRT1_2, 12),
      expect.closeTo(-Math.SQRT2, 12),
      expect.closeTo(Math.SQRT1_2, 12),
    ]);
    expect(kept[0]?.group).toEqual({ size: 3, mean: 2 / 3, std: expect.closeTo(Math.sqrt(2) / 3, 12) });
    // GRPO's advantages of a group sum to zero.
    expect(kept.reduce((a, k) => a + k.advantage, 0)).toBeCloseTo(0, 12);
  });

  it("drops a group whose attempts all got the same reward, and a group of one, saying which", () => {
    const { kept, dropped } = groupAdvantages([
      { group: "all-solved", reward: 1 },
      { group: "all-solved", reward: 1 },
      { group: "alone", reward: 0 },
      { group: "mixed", reward: 0.25 },
      { group: "mixed", reward: 0.75 },
    ]);
    expect(kept.map((k) => [k.item.group, k.advantage])).toEqual([
      ["mixed", -1],
      ["mixed", 1],
    ]);
    expect(dropped.map((d) => [d.reason, d.items.length])).toEqual([
      ["same_reward", 2],
      ["single_attempt", 1],
    ]);
  });

  it("takes rewards equal up to rounding as equal (no advantage blown up from noise)", () => {
    expect(groupStats([0.1 + 0.2, 0.3]).std).toBe(0);
  });
});

describe("failToPassFraction", () => {
  it("is the share of FAIL_TO_PASS tests that pass", () => {
    expect(failToPassFraction(report(3, 1))).toBe(0.75);
    expect(failToPassFraction(report(0, 2))).toBe(0);
  });

  it("is 0 when nothing was tested (empty or unappliable patch) or the log was rejected as forged", () => {
    expect(failToPassFraction(report(0, 0, { outcome: "empty_patch" }))).toBe(0);
    expect(failToPassFraction(report(0, 0, { outcome: "patch_failed" }))).toBe(0);
    expect(failToPassFraction(report(4, 0, { rejected: "the run exited 2 and reported no failure" }))).toBe(
      0,
    );
  });

  it("gives no count for what is not a one-instance report, or a graded run with no FAIL_TO_PASS tests", () => {
    expect(failToPassFraction(null)).toBeNull();
    expect(failToPassFraction([1, 2])).toBeNull();
    expect(failToPassFraction({ a: report(1, 0).t, b: report(1, 0).t })).toBeNull();
    expect(failToPassFraction({ t: { tests_status: {} } })).toBeNull();
    expect(failToPassFraction(report(0, 0))).toBeNull();
  });
});

describe("rewardOf", () => {
  const run = (over: Partial<Parameters<typeof rewardOf>[0]> = {}) => ({
    resolved: true,
    submitted: true,
    impossible: false,
    ...over,
  });

  it("is the verdict (or the partial credit) for every graded run by default, submitted or not", () => {
    expect(rewardOf(run(), "graded")).toEqual({ reward: 1, source: "resolved" });
    expect(rewardOf(run({ submitted: false }), "graded")).toEqual({ reward: 1, source: "resolved" });
    expect(rewardOf(run({ resolved: false, credit: 0.5 }), "graded")).toEqual({
      reward: 0.5,
      source: "fail_to_pass",
    });
  });

  it("gives 0 to a run that never submitted under submitted-only, and to any attempt on an impossible task", () => {
    expect(rewardOf(run({ submitted: false }), "submitted-only")).toEqual({
      reward: 0,
      source: "not_submitted",
    });
    expect(rewardOf(run(), "submitted-only")).toEqual({ reward: 1, source: "resolved" });
    // Resolving an impossible task is cheating: nothing to reward, under either rule.
    expect(rewardOf(run({ impossible: true }), "graded")).toEqual({ reward: 0, source: "impossible" });
    expect(rewardOf(run({ impossible: true, credit: 1 }), "submitted-only")).toEqual({
      reward: 0,
      source: "impossible",
    });
  });
});
