import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GradedInstance, GradingRules, InstanceReport } from "./types.js";

/**
 * The folders of a run, as SWE-bench's logs/run_evaluation lays them out:
 *   <out>/<run_id>/<model>/<instance_id>/{report.json,test_output.txt,patch.diff,eval.sh}
 *   <out>/<run_id>/<model>.<run_id>.json (the summary)
 * with "/" in model names turned into "__", as SWE-bench does.
 */
export const REPORT_FILE = "report.json";
export const TEST_OUTPUT_FILE = "test_output.txt";
export const PATCH_FILE = "patch.diff";
export const EVAL_SCRIPT_FILE = "eval.sh";

/** A name used as a folder must not climb out of the run folder or hide a path inside itself. */
export function assertSafeName(name: string, what: string): void {
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name))
    throw new Error(
      `${what} "${name}" cannot be used as a folder name: use letters, digits, "-", "_" or "."`,
    );
}

export function modelFolder(model: string): string {
  const folder = model.replaceAll("/", "__");
  assertSafeName(folder, "model_name_or_path");
  return folder;
}

export function instanceDir(outDir: string, runId: string, model: string, instanceId: string): string {
  assertSafeName(instanceId, "instance_id");
  return join(outDir, runId, modelFolder(model), instanceId);
}

export function summaryPath(outDir: string, runId: string, model: string): string {
  return join(outDir, runId, `${modelFolder(model)}.${runId}.json`);
}

/** Write through a temporary name so a crash never leaves half a JSON file that looks finished. */
function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/**
 * Before grading: forget any earlier verdict, then record the patch. Removing report.json first means
 * an interrupted regrade never leaves an old report next to a new patch (which would look finished).
 */
export function startInstanceDir(dir: string, patch: string): void {
  mkdirSync(dir, { recursive: true });
  rmSync(join(dir, REPORT_FILE), { force: true });
  writeFileSync(join(dir, PATCH_FILE), patch);
}

/** After grading: the logs, then report.json last — its presence is what "finished" means. */
export function finishInstanceDir(
  dir: string,
  instanceId: string,
  graded: Partial<GradedInstance> & { report: InstanceReport },
): void {
  if (graded.testOutput !== undefined) writeFileSync(join(dir, TEST_OUTPUT_FILE), graded.testOutput);
  if (graded.evalScript !== undefined) writeFileSync(join(dir, EVAL_SCRIPT_FILE), graded.evalScript);
  // SWE-bench's report.json is keyed by instance id; infra_failure is its name for our infrastructure_error.
  const onDisk = {
    [instanceId]: { ...graded.report, infra_failure: graded.report.outcome === "infrastructure_error" },
  };
  writeAtomic(join(dir, REPORT_FILE), `${JSON.stringify(onDisk, null, 2)}\n`);
}

/**
 * The report of an earlier run of this instance, if it finished for the same patch and is worth
 * keeping; undefined means "grade it". Harness errors are graded again: they are usually passing
 * trouble (a sandbox that failed to start), and SWE-bench reruns them too (it writes no report).
 */
export function reusableReport(
  dir: string,
  instanceId: string,
  patch: string | null,
  rules: GradingRules = "hardened",
): InstanceReport | undefined {
  const reportFile = join(dir, REPORT_FILE);
  const patchFile = join(dir, PATCH_FILE);
  if (!existsSync(reportFile) || !existsSync(patchFile)) return undefined;
  if (readFileSync(patchFile, "utf8") !== (patch ?? "")) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(reportFile, "utf8")) as Record<string, InstanceReport | undefined>;
    const report = parsed[instanceId];
    if (!report || typeof report.outcome !== "string" || typeof report.resolved !== "boolean")
      return undefined;
    // The machine may have changed since (an interpreter installed, indexes filled): try them again too.
    if (report.outcome === "infrastructure_error" || report.outcome === "environment_unavailable")
      return undefined;
    if (report.patch_is_None !== (patch === null)) return undefined;
    // A verdict under other rules answers another question (reports from before rules existed too).
    if (report.rules !== rules) return undefined;
    const { infra_failure: _, ...ours } = report as InstanceReport & { infra_failure?: boolean };
    return ours;
  } catch {
    return undefined; // unreadable report: grade again rather than trust it
  }
}

export function writeSummary(path: string, summary: unknown): void {
  writeAtomic(path, `${JSON.stringify(summary, null, 2)}\n`);
}

/** One graded run written where a grading run would write it: patch.diff, the logs, report.json last. */
export function writeGradedRun(
  dir: string,
  instanceId: string,
  patch: string | null,
  graded: Partial<GradedInstance> & { report: InstanceReport },
): void {
  startInstanceDir(dir, patch ?? "");
  finishInstanceDir(dir, instanceId, graded);
}
