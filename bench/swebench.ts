import { gradeInstance } from "../src/eval/index.js";
import {
  checkoutAt,
  instanceEnvironment,
  loadInstanceRows,
  openTaskSandbox,
  reposDir,
  runSetupCommands,
} from "../src/tasks/index.js";
import { git } from "../src/workspace/index.js";
import { type BenchRow, summarise } from "./stats.js";

/** The rows the bench grades, from SWE-bench Lite's sympy rows: short test files, five versions. */
const DEFAULT_IDS = "sympy__sympy-{20590,21612,13471,20049,24152}";

/**
 * A published SWE-bench row's grading cost over the bare test run it wraps (target: ≤ 10 % of the
 * bare run + 1 s). "Bare" is what a person does by hand once the environment exists: the row's test
 * command in a prepared checkout (gold patch and test patch applied) in a sandbox with the layer
 * mounted. "Graded" is `gradeInstance` end to end on the gold patch: a fresh copy-on-write checkout at
 * the base (a shallow fetch for a large repository), the patch and test patch in the sandbox, the
 * canaries, the run, the parse. The two alternate in one process, so the machine's load hits both.
 *
 * Needs the store and the instances file: ACILAB_REPOS and ACILAB_SWEBENCH_INSTANCES
 * (../shared/swebench/lite.jsonl), optionally ACILAB_SWEBENCH_FILTER; without them it says so.
 */
export async function benchSwebench(
  options: { pairs?: number } = {},
): Promise<{ rows: BenchRow[]; extra: string[] }> {
  const file = process.env.ACILAB_SWEBENCH_INSTANCES;
  const repos = reposDir();
  if (!file || !repos)
    return {
      rows: [],
      extra: [
        "swebench: skipped — set ACILAB_REPOS and ACILAB_SWEBENCH_INSTANCES (a SWE-bench instances file)",
      ],
    };
  const pairs = options.pairs ?? 2;
  const { instances } = loadInstanceRows(file, {
    repos,
    filter: process.env.ACILAB_SWEBENCH_FILTER ?? DEFAULT_IDS,
  });
  const bare: number[] = [];
  const graded: number[] = [];
  const overhead: number[] = [];
  const allowed: number[] = [];
  for (const instance of instances) {
    const environment = await instanceEnvironment(instance);
    await gradeInstance(instance, { model_patch: instance.patch }); // the snapshot, once
    const { checkout, gitDir } = await checkoutAt(instance.repo_path, instance.base_commit);
    const env = { GIT_DIR: gitDir, GIT_WORK_TREE: checkout.root };
    await git(checkout.root, ["apply", "-"], { env, input: instance.patch });
    await git(checkout.root, ["apply", "-"], { env, input: instance.test_patch });
    const { sandbox } = await openTaskSandbox(instance, checkout.root, undefined, {
      fromSnapshot: true,
      environment,
    });
    try {
      await runSetupCommands(sandbox, environment?.setup ?? []);
      for (let i = 0; i < pairs; i++) {
        let t = performance.now();
        await sandbox.exec({ argv: instance.test_command, timeoutMs: 600_000 });
        const b = performance.now() - t;
        t = performance.now();
        const g = await gradeInstance(instance, { model_patch: instance.patch });
        if (!g.report.resolved)
          throw new Error(`bench: ${instance.instance_id}'s gold did not resolve: ${g.report.detail}`);
        const gr = performance.now() - t;
        bare.push(b);
        graded.push(gr);
        overhead.push(gr - b);
        allowed.push(0.1 * b + 1000);
      }
    } finally {
      await sandbox.close();
      await checkout.dispose();
    }
  }
  const byMedian = summarise("", allowed).medianMs;
  return {
    rows: [
      summarise(`swebench: bare test run (${instances.length} sympy rows)`, bare),
      summarise("swebench: grading, same rows, alternating", graded),
      summarise("swebench: overhead over bare (≤ 10 % + 1 s)", overhead, byMedian),
    ],
    extra: [
      `swebench: overhead minus its allowance (10 % of that pair's bare run + 1 s), per pair: ${overhead
        .map((o, i) => `${((o - (allowed[i] ?? 0)) / 1000).toFixed(1)} s`)
        .join(", ")}`,
    ],
  };
}
