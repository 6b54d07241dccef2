/**
 * `acilab export rollouts` on a real experiment folder: a loopback sampling model and a giving-up
 * script run on two built-in tasks through `experiment run` once (testing/sampled-experiment.ts);
 * each case below reads that folder or a copy it breaks on purpose.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RolloutLine, RolloutLineSchema, rolloutJsonSchema } from "../rollouts/index.js";
import { PLAN, REPEATS, runSampledExperiment, SAMPLER_MODEL } from "./testing/sampled-experiment.js";
import { runCli } from "./testing.js";

const DOCS = join(import.meta.dirname, "..", "..", "docs");
let work: string;
let dir: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "acilab-rollouts-"));
  dir = join(work, "out");
  await runSampledExperiment(work, dir);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the experiment folder for a case to break. */
function copy(name: string): string {
  const to = join(work, name);
  cpSync(dir, to, { recursive: true });
  return to;
}

async function exportLines(from: string, ...args: string[]) {
  const file = join(work, `lines-${Math.random().toString(36).slice(2)}.jsonl`);
  const r = await runCli(["export", "rollouts", from, "--out", file, "--json", ...args]);
  expect(r.code, r.err).toBe(0);
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => RolloutLineSchema.parse(JSON.parse(l)));
  return { lines, summary: JSON.parse(r.out), err: r.err };
}

/** The sampler's rewards for median-even, in some order: two attempts run at once, so which repeat gets which varies. */
const MIXED = (PLAN["median-even"] ?? []).map((s) => (s === "fix" ? 1 : 0)).sort();

/** The hidden tests' verdict on one attempt of the sampled arm, from its own result.json. */
function verdict(from: string, repeat: number): 0 | 1 {
  const file = join(from, "attempts", "sampled", "median-even", String(repeat), "result.json");
  return JSON.parse(readFileSync(file, "utf8")).resolved ? 1 : 0;
}

describe("acilab export rollouts", () => {
  it("writes a line per attempt of the groups with mixed rewards, each valid against the schema", async () => {
    const { lines, summary } = await exportLines(dir, "--tokenizer", "bytes");
    expect(lines.map((l) => [l.arm, l.task, l.repeat])).toEqual(
      [1, 2, 3].map((repeat) => ["sampled", "median-even", repeat]),
    );
    expect(lines.map((l) => l.reward).sort()).toEqual(MIXED);
    for (const line of lines) {
      // The reward is the hidden tests' verdict on that very attempt.
      expect(line.reward).toBe(verdict(dir, line.repeat));
      // Rewards 1, 0, 1: mean 2/3, population std √2/3, so advantages 1/√2 and −√2.
      expect(line.advantage).toBeCloseTo(line.reward === 1 ? Math.SQRT1_2 : -Math.SQRT2, 12);
      expect(line.group).toEqual({
        size: 3,
        mean: expect.closeTo(2 / 3, 12),
        std: expect.closeTo(Math.SQRT2 / 3, 12),
      });
      // The fix takes three turns (look, edit, submit), giving up two.
      expect([line.model, line.stop_reason, line.submitted, line.impossible, line.steps]).toEqual([
        SAMPLER_MODEL,
        "submitted",
        true,
        false,
        line.reward === 1 ? 3 : 2,
      ]);
      expect(line.policy).toMatch(/^openai-compatible:loopback-sampler@http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(line.mask).toEqual(line.messages.map((m) => (m.role === "assistant" ? 1 : 0)));
      expect(line.messages.map((m) => m.role).slice(0, 2)).toEqual(["system", "user"]);
      expect(line.messages.filter((m) => m.role === "assistant")).toHaveLength(line.steps);
      expect(line.tools.map((t) => t.function.name)).toContain("str_replace");
      // Per token: as many mask bits as ids, and the policy's bytes are its turns, never a tool's output.
      const tokens = line.tokens;
      expect(tokens?.mask).toHaveLength(tokens?.ids.length ?? -1);
      const policyText = Buffer.from(tokens?.ids.filter((_, i) => tokens.mask[i] === 1) ?? []).toString(
        "utf8",
      );
      expect(policyText).toContain("Open the file the issue is about.");
      for (const m of line.messages) if (m.role === "tool") expect(policyText).not.toContain(m.content);
    }
    expect(summary).toMatchObject({
      experiment: "rollouts-fixture",
      attempts: 2 * 2 * REPEATS,
      exported: 3,
      groups: { total: 4, kept: 1 },
      dropped: { same_reward: { groups: 3, attempts: 9 }, single_attempt: { groups: 0, attempts: 0 } },
      broken: [],
      tokenizer: "bytes",
    });
  });

  it("prints the lines on stdout and the summary on stderr without --out", async () => {
    const r = await runCli(["export", "rollouts", dir]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n").map((l) => RolloutLineSchema.parse(JSON.parse(l)).repeat)).toEqual([1, 2, 3]);
    expect(r.err).toContain("3 rollout lines of experiment rollouts-fixture → stdout (1 of 4 groups kept)");
    expect(r.err).toContain("dropped 3 group(s), 9 attempts: every attempt got the same reward");
  });

  it("rewards the FAIL_TO_PASS fraction with --partial-credit, and the verdict where report.json is missing", async () => {
    const full = await exportLines(dir, "--partial-credit");
    // The fix passes all four FAIL_TO_PASS tests; giving up is an empty patch, which passes none.
    expect(full.lines.map((l) => [l.reward, l.reward_source])).toEqual(
      full.lines.map((l) => [verdict(dir, l.repeat), "fail_to_pass"]),
    );
    const broken = copy("no-report");
    const solved = [1, 2, 3].find((r) => verdict(dir, r) === 1);
    rmSync(join(broken, "attempts", "sampled", "median-even", String(solved), "report.json"));
    const { lines, summary } = await exportLines(broken, "--partial-credit");
    expect(lines.map((l) => [l.repeat === solved, l.reward_source])).toEqual(
      lines.map((l) => [l.repeat === solved, l.repeat === solved ? "resolved" : "fail_to_pass"]),
    );
    expect(lines.find((l) => l.repeat === solved)?.reward).toBe(1);
    expect(summary.no_report).toEqual([
      expect.objectContaining({
        arm: "sampled",
        task: "median-even",
        repeat: solved,
        why: `attempts/sampled/median-even/${solved}/report.json is missing; rewarded by the verdict`,
      }),
    ]);
  });

  it("marks a run a limit stopped as not submitted, and gives it 0 with --reward submitted-only", async () => {
    const limited = copy("limited");
    const solved = [1, 2, 3].find((r) => verdict(dir, r) === 1);
    // As if the fixing run had been stopped by its wall clock after the edit, before it submitted.
    const db = new Database(join(limited, "experiment.db"));
    db.prepare(
      "UPDATE attempts SET stop_reason = 'time_limit' WHERE arm = 'sampled' AND task = 'median-even' AND repeat = ?",
    ).run(solved);
    db.close();
    const graded = await exportLines(limited);
    const line = graded.lines.find((l) => l.repeat === solved);
    expect([line?.submitted, line?.reward, line?.reward_source]).toEqual([false, 1, "resolved"]);
    expect(graded.summary).toMatchObject({ reward: "graded", not_submitted: 1 });
    expect(graded.err).toBe("");
    const strict = await exportLines(limited, "--reward", "submitted-only");
    // Its reward is now 0 like the give-up's, and the two fixes that submitted keep 1.
    expect(strict.lines.map((l) => [l.repeat === solved, l.reward, l.reward_source]).sort()).toEqual(
      [
        [false, 0, "resolved"],
        [false, 1, "resolved"],
        [true, 0, "not_submitted"],
      ].sort(),
    );
    const text = await runCli(["export", "rollouts", limited, "--reward", "submitted-only"]);
    expect(text.err).toContain("1 line(s) of runs that never submitted: reward 0 (--reward submitted-only)");
    const bad = await runCli(["export", "rollouts", limited, "--reward", "always"]);
    expect([bad.code, bad.err.split("\n")[0]]).toEqual([
      2,
      'acilab export rollouts: --reward must be one of graded, submitted-only, got "always"',
    ]);
  });

  it("rewards nothing on an impossible task: its group has no signal and is dropped", async () => {
    const marked = copy("impossible");
    // The grader marks an impossible task in each attempt's report.json.
    for (const repeat of [1, 2, 3]) {
      const file = join(marked, "attempts", "sampled", "median-even", String(repeat), "report.json");
      const report = JSON.parse(readFileSync(file, "utf8"));
      report["median-even"].impossible = true;
      writeFileSync(file, JSON.stringify(report));
    }
    const { lines, summary } = await exportLines(marked);
    expect(lines).toEqual([]);
    expect(summary.dropped.same_reward).toEqual({ groups: 4, attempts: 12 });
  });

  it("skips and counts a torn or broken trajectory and an unfinished attempt, never failing", async () => {
    const broken = copy("broken");
    const trajectory = (repeat: number) =>
      join(broken, "attempts", "sampled", "median-even", String(repeat), "trajectory.jsonl");
    const size = readFileSync(trajectory(1)).length;
    truncateSync(trajectory(1), size - 40); // a run killed mid-write: the last line is torn
    writeFileSync(trajectory(2), `not json\n${readFileSync(trajectory(2), "utf8")}`);
    // Valid JSON lines of the wrong shape: a turn without its request.
    const records = readFileSync(trajectory(3), "utf8").split("\n");
    const turn = JSON.parse(records[1] ?? "{}");
    delete turn.request;
    records[1] = JSON.stringify(turn);
    writeFileSync(trajectory(3), records.join("\n"));
    const db = new Database(join(broken, "experiment.db"));
    db.prepare(
      "UPDATE attempts SET status = 'pending' WHERE arm = 'gives-up' AND task = 'semver-range' AND repeat = 3",
    ).run();
    db.close();
    const { lines, summary } = await exportLines(broken);
    expect(lines).toEqual([]);
    expect(
      summary.broken.map((b: { repeat: number; why: string }) => [b.repeat, b.why.split(":")[0]]),
    ).toEqual([
      [1, "trajectory truncated"],
      [2, "trajectory unreadable"],
      [3, "records of the wrong shape (TypeError"],
    ]);
    expect(summary.not_done).toEqual({ pending: 1, running: 0, no_script: 0, error: 0 });
    // gives-up · semver-range keeps two repeats, both 0: no signal.
    expect(summary.dropped.same_reward).toEqual({ groups: 3, attempts: 8 });
  });

  it("refuses a folder with no experiment.db, an unknown format or tokenizer, saying what to do", async () => {
    const empty = mkdtempSync(join(work, "empty-"));
    const none = await runCli(["export", "rollouts", empty]);
    expect(none.code).toBe(1);
    expect(none.err).toContain(
      `acilab export rollouts: ${empty} has no experiment.db, so it is not an experiment's folder — give the --out folder of "acilab experiment run"`,
    );
    const format = await runCli(["export", "rollouts", dir, "--format", "parquet"]);
    expect([format.code, format.err.split("\n")[0]]).toEqual([
      2,
      'acilab export rollouts: --format must be jsonl, got "parquet"',
    ]);
    const tokenizer = await runCli(["export", "rollouts", dir, "--tokenizer", "gpt9"]);
    expect(tokenizer.code).toBe(2);
    expect(tokenizer.err).toContain('unknown tokenizer "gpt9" — use one of bytes, cl100k_base');
    const json = await runCli(["export", "rollouts", dir, "--json"]);
    expect(json.code).toBe(2);
    expect(json.err).toContain("--json prints the summary on stdout, so the lines need --out FILE");
    const sub = await runCli(["export", "trajectories", dir]);
    expect([sub.code, sub.err.split("\n")[0]]).toEqual([
      2,
      'acilab export: unknown export "trajectories" — acilab export rollouts DIR',
    ]);
  });
});

describe("docs", () => {
  it("docs/rollouts.schema.json is the JSON Schema of the line the code writes", () => {
    expect(JSON.parse(readFileSync(join(DOCS, "rollouts.schema.json"), "utf8"))).toEqual(rolloutJsonSchema());
  });

  it("the example line in docs/rollouts.md is a valid line, and every field of the line is documented", () => {
    const doc = readFileSync(join(DOCS, "rollouts.md"), "utf8");
    const example = /```json\n(\{"format".*\})\n```/s.exec(doc)?.[1] ?? "";
    const line: RolloutLine = RolloutLineSchema.parse(JSON.parse(example));
    for (const field of Object.keys(RolloutLineSchema.shape))
      expect(doc, field).toContain(`| \`${field}\` |`);
    expect(line.task).toBe("median-even");
  });
});
