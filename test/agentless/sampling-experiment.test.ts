/**
 * Issue 14's end to end: an experiment with `samples: 8` of the Agentless policy (one repair
 * candidate per sample, so the samples differ) on the recorded built-in tasks, through the real CLI,
 * sandbox, grader and the recorded-response model server on loopback; its report shows pass@k
 * against best-of-k for oracle, vote and Agentless's own chain.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordedAgentless,
  recordedTasks,
  startRecordedAgentless,
} from "../../src/agentless/testing.js";
import { runCli } from "../../src/cli/testing.js";
import { analyzeExperiment, readExperimentDir } from "../../src/experiment/index.js";

const dir = mkdtempSync(join(tmpdir(), "acilab-agentless-samples-"));
let rec: RecordedAgentless;
let run: { code: number; out: string; err: string };

beforeAll(async () => {
  rec = await startRecordedAgentless();
  const file = join(dir, "sampled.yaml");
  writeFileSync(
    file,
    `name: agentless-sampled
arms:
  agentless-k1: { policy: "${rec.spec({ k: 1 })}" }
tasks: [${recordedTasks().join(", ")}]
samples: 8
selectors: [oracle, vote, regression>reproduction>vote]
`,
  );
  run = await runCli(["experiment", "run", file, "--out", join(dir, "out")]);
});

afterAll(async () => {
  await rec?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("samples: 8 of agentless on the recorded built-in tasks", () => {
  it("runs every sample and gathers each task's selection evidence once", () => {
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`24/24 attempts finished`);
    expect(
      run.out.match(/^selection evidence \[\d\/3\] agentless-k1 · .*: 8 candidates · \d distinct patch/gm),
    ).toHaveLength(3);
  });

  it("reports coverage against selection: the vote and the chain recover what one sample misses", () => {
    const analysis = analyzeExperiment(readExperimentDir(join(dir, "out")));
    const arm = analysis.sampling?.arms[0];
    expect(arm).toMatchObject({ arm: "agentless-k1", n: 8, tasks: 3, incomplete: [] });
    // Each sample's one candidate is the recording's next repair answer, in turn: some break a test,
    // some do not apply, the rest are the fix (written two ways). One sample resolves about half the time…
    const passAt1 = arm?.passAtK[0] ?? 0;
    expect(passAt1).toBeGreaterThan(0.3);
    expect(passAt1).toBeLessThan(0.9);
    expect(arm?.passAtK.at(-1)).toBe(1);
    // …and choosing among all eight (k = 8, the last point) submits a resolving one on every task (3 of 3).
    for (const chain of arm?.selectors ?? []) {
      expect(chain.error).toBeUndefined();
      if (chain.error === undefined) expect(chain.bestOfK.at(-1)).toMatchObject({ k: 8, resolved: 3, n: 3 });
    }
    expect(arm?.dollarsPerSelected.every((d) => d !== null && d > 0)).toBe(true);
  });

  it("prints the table and draws both curves in the HTML report", async () => {
    const md = await runCli(["experiment", "report", join(dir, "out")]);
    expect(md.out).toContain("## Sampling: pass@k against best-of-k");
    expect(md.out).toMatch(
      /\| k \| pass@k \| oracle best-of-k \| vote best-of-k \| regression>reproduction>vote best-of-k \| \$ per submission \|/,
    );
    expect(md.out).toMatch(/^\| 8 \| 100\.0 % \| 3\/3 /m);
    const html = await runCli(["experiment", "report", join(dir, "out"), "--format", "html"]);
    expect(html.code).toBe(0);
    const page = readFileSync(join(dir, "out", "report.html"), "utf8");
    expect(page).toContain('<section id="sampling">');
    expect(page).toMatch(/<figure id="plot-sampling-1"><h3>agentless-k1: coverage and selection<\/h3><svg/);
  });

  it("exports no spliced transcript of a workflow's separate calls: each attempt is skipped and counted", async () => {
    const out = join(dir, "rollouts.jsonl");
    const exported = await runCli(["export", "rollouts", join(dir, "out"), "--out", out, "--json"]);
    expect(exported.code, exported.err).toBe(0);
    const summary = JSON.parse(exported.out) as { exported: number; broken: { why: string }[] };
    expect(summary.exported).toBe(0);
    expect(summary.broken).toHaveLength(24);
    expect(summary.broken[0]?.why).toMatch(/starts a new conversation: the run made separate model calls/);
  });
});
