/**
 * From a coding run's workspace to its submission: the task's setup run as the grader runs it, then
 * the workspace's patch less what setup itself made, and the changes a patch cannot carry named in
 * the grade.
 */
import type { Sandbox } from "../sandbox/index.js";
import { type InstanceReport, patchPaths, splitDiff } from "../swebench/index.js";
import { runSetupCommands, type Task } from "../tasks/index.js";
import { type Checkout, describeUncarried } from "../workspace/index.js";

/** The patch, and the changes it cannot carry; a workspace the host cannot read is a reason, not a crash. */
export interface Submission {
  patch: string;
  uncarried: string[];
  /** Files both setup and the agent changed: in the patch whole, setup's part included. */
  setupOverlap: string[];
}

/**
 * The task's setup (an instance's setup_commands) in the agent's sandbox, as the grader runs it in its
 * own: the agent meets the repository the tests will run in. Returns what setup changed in the tree,
 * each file's diff block with the paths it names, so the submission can leave it out (the grader's
 * setup makes it again).
 */
export async function runTaskSetup(
  task: Task,
  environmentSetup: readonly string[],
  sandbox: Sandbox,
  checkout: Checkout,
  signal: AbortSignal | undefined,
): Promise<ReadonlyMap<string, string[]>> {
  const lines = [...environmentSetup, ...(task.setupCommands ?? [])];
  if (lines.length === 0) return new Map();
  const failed = await runSetupCommands(sandbox, lines).catch((e: unknown) =>
    e instanceof Error ? e.message : String(e),
  );
  if (signal?.aborted) throw new Error(`task "${task.id}": interrupted during its setup`);
  if (failed)
    throw new Error(
      `task "${task.id}": ${failed} — the agent never started; fix the instance's setup_commands`,
    );
  return new Map(splitDiff((await checkout.patch()).diff).map((block) => [block, patchPaths(block)]));
}

/**
 * The workspace's patch, less the file changes that are exactly as setup left them. A file both
 * setup and the agent changed stays whole in the patch — setup's part with it, which the grader's own
 * setup makes again — and is named in `setupOverlap` so the grade says so. An environment layer's
 * generated files (a `_version.py`) are put back by a setup line, and are left out the same way.
 */
export async function readSubmission(
  checkout: Checkout,
  setupBlocks: ReadonlyMap<string, string[]>,
): Promise<Submission> {
  try {
    const { diff, uncarried } = await checkout.patch();
    const described = uncarried.map(describeUncarried);
    if (setupBlocks.size === 0) return { patch: diff, uncarried: described, setupOverlap: [] };
    const setupPaths = new Set([...setupBlocks.values()].flat());
    const kept = splitDiff(diff).filter((b) => !setupBlocks.has(b));
    const setupOverlap = [...new Set(kept.flatMap(patchPaths).filter((p) => setupPaths.has(p)))];
    return { patch: kept.join(""), uncarried: described, setupOverlap };
  } catch (err) {
    const why = (err as Error).message.split("\n")[0];
    return {
      patch: "",
      uncarried: [`the workspace's changes could not be read as a patch (${why})`],
      setupOverlap: [],
    };
  }
}

/** Uncarried changes listed in a grade's detail; more are counted. */
const MAX_LISTED_UNCARRIED = 5;

/** The submission is the workspace: when the patch cannot carry all of it, the attempt is not resolved. */
export function withUncarried(report: InstanceReport, uncarried: string[]): InstanceReport {
  if (uncarried.length === 0) return report;
  const listed = uncarried.slice(0, MAX_LISTED_UNCARRIED).join("; ");
  const more =
    uncarried.length > MAX_LISTED_UNCARRIED ? ` and ${uncarried.length - MAX_LISTED_UNCARRIED} more` : "";
  return {
    ...report,
    resolved: false,
    detail: `the patch cannot carry every change in the workspace — ${listed}${more}; graded on the rest: ${report.detail}`,
  };
}

/** The verdict stands (the grader applied the patch over its own setup), but the detail says why it may mislead. */
export function withSetupOverlap(report: InstanceReport, files: string[]): InstanceReport {
  if (files.length === 0) return report;
  return {
    ...report,
    detail: `${report.detail} — note: the patch also carries setup's own changes to ${files.join(", ")} (setup and the agent both changed them), applied over the grader's setup`,
  };
}
