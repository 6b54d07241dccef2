/**
 * Rewards and group-relative advantages (GRPO's baseline): each attempt is compared with the other
 * attempts of its group, the repeats of one task under one arm. Pure functions.
 */

export interface Rewarded {
  /** The group's key: attempts with equal keys are samples of one task under one arm version. */
  group: string;
  reward: number;
}

export type DropReason = "single_attempt" | "same_reward";

export interface GroupStats {
  size: number;
  mean: number;
  /** Population standard deviation: the group is all the samples there are, not a sample of them. */
  std: number;
}

export interface Advantaged<T> {
  item: T;
  advantage: number;
  group: GroupStats;
}

export interface Dropped<T> {
  reason: DropReason;
  items: T[];
}

/**
 * Which runs the hidden tests' verdict rewards. `graded` (the default): every done attempt, however
 * its run ended — its patch was graded, as SWE-bench grades the patch a run leaves at a limit, so the
 * mean reward is the resolve rate the experiment reports. `submitted-only`: a run that never submitted
 * (stopped by a step, time or dollar limit) gets 0, for a trainer that rewards finishing the job.
 */
export const REWARD_RULES = ["graded", "submitted-only"] as const;
export type RewardRule = (typeof REWARD_RULES)[number];

/** Why a reward is what it is (a line's `reward_source`). */
export type RewardSource = "resolved" | "fail_to_pass" | "not_submitted" | "impossible";

/**
 * One attempt's reward. An impossible task's hidden tests contradict its statement: "resolving" it is
 * cheating, so it earns nothing (0, `impossible`). Under `submitted-only` a run that never submitted
 * earns 0 (`not_submitted`). Otherwise the FAIL_TO_PASS fraction when partial credit gave one, else
 * the verdict.
 */
export function rewardOf(
  attempt: { resolved: boolean; submitted: boolean; impossible: boolean; credit?: number | undefined },
  rule: RewardRule,
): { reward: number; source: RewardSource } {
  if (attempt.impossible) return { reward: 0, source: "impossible" };
  if (rule === "submitted-only" && !attempt.submitted) return { reward: 0, source: "not_submitted" };
  if (attempt.credit !== undefined) return { reward: attempt.credit, source: "fail_to_pass" };
  return { reward: attempt.resolved ? 1 : 0, source: "resolved" };
}

/** Outcomes where the grader ran no test because there was nothing to test: no test passed. */
const NOTHING_TESTED = new Set(["empty_patch", "patch_failed"]);

/**
 * The fraction of FAIL_TO_PASS tests passing in a SWE-bench per-instance report (`{ [id]: { tests_status } }`),
 * or null when the report gives no count (not a report, or an empty FAIL_TO_PASS list after a graded
 * run). An empty or unappliable patch scores 0, and so does a log the grader rejected as untrusted:
 * partial credit must not pay for the tests a forged log claims passed.
 */
export function failToPassFraction(report: unknown): number | null {
  if (typeof report !== "object" || report === null) return null;
  const entries = Object.values(report as Record<string, unknown>);
  if (entries.length !== 1) return null;
  const entry = entries[0] as {
    outcome?: unknown;
    rejected?: unknown;
    tests_status?: { FAIL_TO_PASS?: { success?: unknown; failure?: unknown } };
  } | null;
  if (typeof entry !== "object" || entry === null) return null;
  if (typeof entry.rejected === "string") return 0;
  if (typeof entry.outcome === "string" && NOTHING_TESTED.has(entry.outcome)) return 0;
  const status = entry.tests_status?.FAIL_TO_PASS;
  if (!Array.isArray(status?.success) || !Array.isArray(status?.failure)) return null;
  const total = status.success.length + status.failure.length;
  return total === 0 ? null : status.success.length / total;
}

/**
 * (reward − mean) / std within each group. A group whose rewards are all equal (std = 0) carries no
 * signal — every advantage would be 0/0 — and is dropped, as is a group of one (it has no baseline).
 */
export function groupAdvantages<T extends Rewarded>(
  items: readonly T[],
): { kept: Advantaged<T>[]; dropped: Dropped<T>[] } {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(item.group);
    if (list) list.push(item);
    else groups.set(item.group, [item]);
  }
  const kept: Advantaged<T>[] = [];
  const dropped: Dropped<T>[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) {
      dropped.push({ reason: "single_attempt", items: members });
      continue;
    }
    const stats = groupStats(members.map((m) => m.reward));
    if (stats.std === 0) {
      dropped.push({ reason: "same_reward", items: members });
      continue;
    }
    for (const item of members)
      kept.push({ item, advantage: (item.reward - stats.mean) / stats.std, group: stats });
  }
  return { kept, dropped };
}

/**
 * Mean and population std. Rewards that differ only by floating-point noise (partial credit's
 * fractions summed in another order) count as equal: their "advantages" would be noise blown up.
 */
export function groupStats(rewards: readonly number[]): GroupStats {
  const size = rewards.length;
  const mean = rewards.reduce((a, b) => a + b, 0) / size;
  const variance = rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / size;
  const std = Math.sqrt(variance);
  return { size, mean, std: std < EQUAL_REWARDS ? 0 : std };
}

/** A std below this is rounding error on rewards in [0, 1], not a difference between attempts. */
const EQUAL_REWARDS = 1e-12;
