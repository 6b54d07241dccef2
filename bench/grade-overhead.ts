import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seededRandom } from "../src/builders/index.js";
import { gradeInstance, planTwins, twinParsers } from "../src/eval/index.js";
import {
  checkoutAt,
  loadTask,
  openTaskSandbox,
  resolvePlaceholders,
  taskInstance,
} from "../src/tasks/index.js";
import { makePythonTask } from "../src/tasks/testing.js";
import { git } from "../src/workspace/index.js";
import { quantile } from "./stats.js";

export interface GradeOverheadRow {
  name: string;
  n: number;
  medianMs: number;
  p95Ms: number;
  targetMs: number | undefined;
}

function stats(samples: number[]): { median: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { median: quantile(s, 0.5), p95: quantile(s, 0.95) };
}

/**
 * Grading's cost over the bare test run it wraps (target ≤ 10 % + 15 ms): the same instance, the same
 * sandbox backend, measured alternately in one process so machine noise hits both. "Bare" is the test
 * command alone in an already prepared sandbox; "graded" is the whole pipeline — checkout, patch,
 * restore, test patch, twins and canaries planned and planted, sandbox, markers, parse, score,
 * teardown. The twins are tests too, and run as long as their originals: "bare with twins" is the
 * bare run with the same twins planted (one identical, one inverted: what the grader plants for this
 * instance's one hidden test), so their own run time is reported apart from the overhead.
 */
export async function benchGradeOverhead(options: { iterations?: number } = {}): Promise<GradeOverheadRow[]> {
  const n = options.iterations ?? 9;
  const dir = makePythonTask();
  try {
    const instance = await taskInstance(loadTask(dir));
    await gradeInstance(instance, { model_patch: instance.patch }); // builds the snapshot once
    const { checkout, gitDir } = await checkoutAt(instance.repo_path, instance.base_commit);
    const env = { GIT_DIR: gitDir, GIT_WORK_TREE: checkout.root };
    await git(checkout.root, ["apply", "-"], { env, input: instance.patch });
    await git(checkout.root, ["apply", "-"], { env, input: instance.test_patch });
    const { sandbox } = await openTaskSandbox(instance, checkout.root, undefined, { fromSnapshot: true });
    const argv = resolvePlaceholders(instance.test_command);
    // The same prepared tree with twins of the hidden test planted, in a sandbox of its own.
    const twinnedCheckout = await checkoutAt(instance.repo_path, instance.base_commit);
    const twinnedEnv = { GIT_DIR: twinnedCheckout.gitDir, GIT_WORK_TREE: twinnedCheckout.checkout.root };
    await git(twinnedCheckout.checkout.root, ["apply", "-"], { env: twinnedEnv, input: instance.patch });
    await git(twinnedCheckout.checkout.root, ["apply", "-"], { env: twinnedEnv, input: instance.test_patch });
    const hiddenPath = "tests/test_hidden.py";
    const hiddenFile = join(twinnedCheckout.checkout.root, hiddenPath);
    const plan = planTwins({
      parser: instance.log_parser,
      files: [{ path: hiddenPath, text: readFileSync(hiddenFile, "utf8") }],
      tests: instance,
      testCommand: argv,
      random: seededRandom(1),
      parserFor: await twinParsers(instance.log_parser),
    });
    writeFileSync(hiddenFile, plan.files[0]?.text ?? "");
    const twinned = await openTaskSandbox(instance, twinnedCheckout.checkout.root, undefined, {
      fromSnapshot: true,
    });
    const bare: number[] = [];
    const bareTwinned: number[] = [];
    const graded: number[] = [];
    try {
      for (let i = 0; i < n; i++) {
        let t = performance.now();
        const r = await sandbox.exec({ argv, timeoutMs: 60_000 });
        if (r.exitCode !== 0) throw new Error(`bench: the bare test run failed:\n${r.output}`);
        bare.push(performance.now() - t);
        t = performance.now();
        const w = await twinned.sandbox.exec({ argv, timeoutMs: 60_000 });
        // The inverted twin fails, as it must.
        if (w.exitCode !== 1)
          throw new Error(`bench: the run with twins did not fail its inverted twin:\n${w.output}`);
        bareTwinned.push(performance.now() - t);
        t = performance.now();
        const g = await gradeInstance(instance, { model_patch: instance.patch });
        if (!g.report.resolved)
          throw new Error(`bench: grading did not resolve the gold patch: ${g.report.detail}`);
        graded.push(performance.now() - t);
      }
    } finally {
      await sandbox.close();
      await checkout.dispose();
      await twinned.sandbox.close();
      await twinnedCheckout.checkout.dispose();
    }
    const b = stats(bare);
    const w = stats(bareTwinned);
    const g = stats(graded);
    const twinsOwn = stats(bare.map((x, i) => (bareTwinned[i] ?? x) - x));
    const overhead = bareTwinned.map((x, i) => (graded[i] ?? x) - x);
    const o = stats(overhead);
    return [
      {
        name: "grading: bare test run (pytest, 2 tests)",
        n,
        medianMs: b.median,
        p95Ms: b.p95,
        targetMs: undefined,
      },
      {
        name: `grading: bare test run with the twins planted (${plan.twins.length}: 1 identical, 1 inverted)`,
        n,
        medianMs: w.median,
        p95Ms: w.p95,
        targetMs: undefined,
      },
      {
        name: "grading: the twins' own run time (bare with twins − bare, paired)",
        n,
        medianMs: twinsOwn.median,
        p95Ms: twinsOwn.p95,
        targetMs: undefined,
      },
      { name: "grading: whole pipeline, same run", n, medianMs: g.median, p95Ms: g.p95, targetMs: undefined },
      {
        name: "grading: overhead over bare, the twins' run time apart (≤ 10 % + 15 ms)",
        n,
        medianMs: o.median,
        p95Ms: o.p95,
        targetMs: 0.1 * w.median + 15,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
