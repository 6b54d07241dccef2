/**
 * The evidence the test-based selectors read, gathered the way a deployed system could: the
 * repository's own (visible) tests and the reproduction tests the candidates wrote, never the hidden
 * ones. Every run goes through the grader (a fresh copy-on-write checkout, the sandbox, the guarded
 * runner): one at the base and one per candidate, each with the pooled reproduction tests added.
 */
import { posix } from "node:path";
import { gradeInstance, NOOP_PATCH, readTestOutput } from "../eval/index.js";
import { isPassing, LOG_PARSERS, type TestStatusMap } from "../parsers/index.js";
import { type GradeOptions, type Instance, isTestPath, splitDiff } from "../swebench/index.js";
import { readDiff } from "./diff-files.js";
import type { TestEvidence } from "./selectors.js";

/** The harness, not a candidate, failed: the evidence is not gathered (and not stored) this time. */
export class EvidenceUnavailable extends Error {
  override name = "EvidenceUnavailable";
}

export interface CandidatePatch {
  sample: number;
  patch: string;
}

export interface TaskEvidence {
  /** Visible tests passing at the base: what a regression breaks. */
  basePassing: string[];
  /** Reproduction tests (from the candidates' new test files) that fail at the base: the valid ones. */
  reproductions: string[];
  /** Where each pooled reproduction file came from. */
  reproductionFiles: { sample: number; path: string; pooledAs: string }[];
  candidates: Record<number, TestEvidence & { detail: string }>;
  /** Set when the base's test log is not trusted: no candidate can be judged by the tests. */
  baseError?: string;
}

/** The part of a patch that is the fix, test files left out. */
export function codePart(patch: string): string {
  return splitDiff(patch)
    .filter((block) => !readDiff(block).some((f) => isTestPath(f.path)))
    .join("");
}

/** A pooled reproduction file's name: the sample number in it, still collected by the test runner. */
export function pooledName(path: string, sample: number): string {
  const dir = posix.dirname(path);
  const base = posix.basename(path);
  const renamed = base.startsWith("test_") ? `test_c${sample}_${base.slice(5)}` : `c${sample}_${base}`;
  return dir === "." ? renamed : `${dir}/${renamed}`;
}

/** The candidates' new test files, renamed apart, as one test patch. */
export function poolReproductions(candidates: readonly CandidatePatch[]): {
  patch: string;
  files: TaskEvidence["reproductionFiles"];
} {
  const blocks: string[] = [];
  const files: TaskEvidence["reproductionFiles"] = [];
  for (const c of candidates)
    for (const file of readDiff(c.patch)) {
      if (file.status !== "added" || !isTestPath(file.path) || file.path.includes("..")) continue;
      const pooledAs = pooledName(file.path, c.sample);
      const added = file.hunks.flatMap((h) => h.lines.filter((l) => l.mark === "+").map((l) => l.text));
      blocks.push(
        `diff --git a/${pooledAs} b/${pooledAs}\nnew file mode 100644\n--- /dev/null\n+++ b/${pooledAs}\n@@ -0,0 +1,${added.length} @@\n${added.map((l) => `+${l}`).join("\n")}\n`,
      );
      files.push({ sample: c.sample, path: file.path, pooledAs });
    }
  return { patch: blocks.join(""), files };
}

function statuses(instance: Instance, testOutput: string): TestStatusMap {
  const read = readTestOutput(testOutput);
  return "error" in read ? new Map() : LOG_PARSERS[instance.log_parser](read.output);
}

/** A test id from a pooled file: pytest's `path::name`, or any runner's id that names the file. */
const inPool = (id: string, files: TaskEvidence["reproductionFiles"]) =>
  files.some((f) => id.includes(f.pooledAs));

/**
 * Runs the visible tests and the pooled reproduction tests at the base and on each candidate's fix,
 * one grading run after another.
 */
export async function gatherTestEvidence(
  instance: Instance,
  candidates: readonly CandidatePatch[],
  options: GradeOptions = {},
): Promise<TaskEvidence> {
  const pool = poolReproductions(candidates);
  // The instance as a deployed system has it: no hidden tests, nothing expected yet.
  const visible: Instance = { ...instance, test_patch: pool.patch, FAIL_TO_PASS: [], PASS_TO_PASS: [] };
  const base = await gradeInstance(visible, { model_patch: NOOP_PATCH }, options);
  const evidence: TaskEvidence = {
    basePassing: [],
    reproductions: [],
    reproductionFiles: pool.files,
    candidates: {},
  };
  // The harness failing (a sandbox that did not start, a test run that timed out on a busy machine) says
  // nothing about the candidates: thrown, so nothing is recorded and the next run tries again.
  if (base.report.outcome !== "graded")
    throw new EvidenceUnavailable(
      `the base could not be graded (${base.report.outcome}: ${base.report.detail}) — run the experiment again to retry`,
    );
  if (base.report.rejected) {
    evidence.baseError = `the base's test log is not trusted: ${base.report.rejected}`;
    return evidence;
  }
  // The grader's canaries and twins (hardened rules) are its own tests, not the repository's or a
  // candidate's (a parametrized twin's ids carry the parameter suffix).
  const canaries = new Set(base.report.canaries.map((c) => c.id));
  const twins = (base.report.twins ?? []).map((t) => t.id);
  const planted = (id: string) => canaries.has(id) || twins.some((t) => id === t || id.startsWith(`${t}[`));
  const atBase = statuses(instance, base.testOutput);
  for (const [id, status] of atBase) {
    if (planted(id)) continue;
    if (inPool(id, pool.files)) {
      if (!isPassing(status)) evidence.reproductions.push(id);
    } else if (isPassing(status)) evidence.basePassing.push(id);
  }
  // A reproduction file that does not even import at the base leaves no test ids: it never counts.
  const judged: Instance = { ...visible, PASS_TO_PASS: evidence.basePassing };
  for (const c of candidates) {
    const code = codePart(c.patch);
    if (code.trim() === "") {
      evidence.candidates[c.sample] = {
        applied: false,
        regressions: 0,
        reproductionsPassed: 0,
        detail: "no code change",
      };
      continue;
    }
    const run = await gradeInstance(judged, { model_patch: code }, options);
    if (run.report.outcome === "infrastructure_error")
      throw new EvidenceUnavailable(
        `sample ${c.sample} could not be graded (${run.report.detail}) — run the experiment again to retry`,
      );
    const applied = run.report.patch_successfully_applied;
    // A log the grader does not trust (a candidate that tampers with the runner) proves nothing: as
    // if every test it should have kept had failed, and no reproduction passed.
    const trusted = run.report.rejected === null && run.report.outcome === "graded";
    const after = trusted ? statuses(instance, run.testOutput) : new Map();
    evidence.candidates[c.sample] = {
      applied,
      regressions: !applied
        ? 0
        : trusted
          ? run.report.tests_status.PASS_TO_PASS.failure.length
          : evidence.basePassing.length,
      reproductionsPassed: evidence.reproductions.filter((id) => isPassing(after.get(id))).length,
      detail:
        run.report.outcome === "graded" ? run.report.detail : `${run.report.outcome}: ${run.report.detail}`,
    };
  }
  return evidence;
}
