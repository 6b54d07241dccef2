import { basename } from "node:path";
import type { BackendChoice } from "../sandbox/index.js";
import type { Instance } from "../swebench/index.js";
import {
  dropAgentFiles,
  failingTests,
  hideFailing,
  splitTests,
  unusableRun,
  writeInstances,
} from "./assemble.js";
import { detectRepo, type TestCommandOverride, type TestSetup } from "./detect.js";
import { asFix, type FixCommit, recentCommits } from "./history.js";
import { problemStatement } from "./issue.js";
import { isTestModule, languageOf } from "./paths.js";
import { type TestRun, WorkRepo } from "./workdir.js";

/** Commits walked back from HEAD: 700 reaches a small library's recent fixes. */
export const DEFAULT_MAX_COMMITS = 700;
/**
 * Fixes of at most 40 source lines: one issue's worth (mirrored fixes of small Python libraries
 * change 1–16 lines, median 4).
 */
export const DEFAULT_MAX_SRC_LINES = 40;

export interface MirrorOptions {
  repo: string;
  out: string;
  maxCommits?: number;
  maxSrcLines?: number;
  testCommand?: TestCommandOverride;
  backend?: BackendChoice;
  /** Told about each candidate as it is decided. */
  onCandidate?: (c: CandidateOutcome) => void;
}

/** One fix commit and what became of it. */
export interface CandidateOutcome {
  sha: string;
  subject: string;
  kept: boolean;
  /** For a kept one: "N FAIL_TO_PASS, M PASS_TO_PASS"; else why it was skipped. */
  reason: string;
  instanceId?: string;
}

export interface BuildReport {
  instances: Instance[];
  candidates: CandidateOutcome[];
  /** Commits looked at, and how many of them were not fixes (no test + source change). */
  scanned: number;
  notFixes: number;
  setup: TestSetup;
  bundle: string | undefined;
  warnings: string[];
}

/**
 * PR mirroring (as SWE-smith does): take fixes that already landed, undo each one's source part on
 * today's HEAD, and keep the tests of its files that pass at HEAD and fail with the fix undone.
 */
export async function mirror(options: MirrorOptions): Promise<BuildReport> {
  const maxSrc = options.maxSrcLines ?? DEFAULT_MAX_SRC_LINES;
  const setup = await detectRepo(options.repo, options.testCommand);
  const work = await WorkRepo.create(options.repo, setup.language, options.backend);
  const warnings = work.warning ? [work.warning] : [];
  try {
    const commits = await recentCommits(work, options.maxCommits ?? DEFAULT_MAX_COMMITS);
    const fixes = commits.map(asFix).filter((c): c is FixCommit => c !== undefined);
    const candidates: CandidateOutcome[] = [];
    const instances: Instance[] = [];
    const headRuns = new Map<string, TestRun>();
    const repoName = basename(options.repo.replace(/\/+$/, "")).replace(/\.git$/, "");
    for (const fix of fixes) {
      const decided = await mirrorOne(work, setup, fix, maxSrc, repoName, headRuns);
      const outcome: CandidateOutcome = {
        sha: fix.sha,
        subject: fix.subject,
        kept: "instance" in decided,
        reason: decided.reason,
        ...("instance" in decided ? { instanceId: decided.instance.instance_id } : {}),
      };
      if ("instance" in decided) instances.push(decided.instance);
      candidates.push(outcome);
      options.onCandidate?.(outcome);
    }
    await work.reset();
    const written = await writeInstances(options.out, work, instances);
    const bundle = instances.length > 0 ? written : undefined;
    return {
      instances,
      candidates,
      scanned: commits.length,
      notFixes: commits.length - fixes.length,
      setup,
      bundle,
      warnings,
    };
  } finally {
    await work.dispose();
  }
}

type Decision = { reason: string } | { reason: string; instance: Instance };

async function mirrorOne(
  work: WorkRepo,
  setup: TestSetup,
  fix: FixCommit,
  maxSrc: number,
  repoName: string,
  headRuns: Map<string, TestRun>,
): Promise<Decision> {
  if (fix.sourceLines > maxSrc)
    return { reason: `changes ${fix.sourceLines} source lines (more than --max-src-lines ${maxSrc})` };
  const atHead = new Set(await work.files());
  const testFiles = fix.testFiles.filter(
    (f) => atHead.has(f) && isTestModule(f) && languageOf(f) !== undefined,
  );
  if (testFiles.length === 0) return { reason: "none of its test files is a test module at HEAD" };
  const sourcePatch = await work.diff(`${fix.sha}^`, fix.sha, fix.sourceFiles);
  await work.reset();
  if (!(await work.apply(sourcePatch, true)))
    return { reason: "its source part no longer reverse-applies at HEAD" };
  const broken = await work.runTests(setup, testFiles);
  await work.reset();
  const key = testFiles.join("\0");
  let good = headRuns.get(key);
  if (!good) {
    good = await work.runTests(setup, testFiles);
    headRuns.set(key, good);
  }
  const bad = unusableRun(good);
  if (bad) return { reason: `its tests do not run at HEAD: ${bad}` };
  const badBroken = unusableRun(broken);
  if (badBroken) return { reason: `its tests do not run with the fix undone: ${badBroken}` };
  const { f2p, p2p } = splitTests(good, broken);
  if (f2p.length === 0)
    return { reason: `no FAIL_TO_PASS: none of its ${good.statuses.size} tests fails with the fix undone` };

  const failing = await failingTests(work, setup, testFiles, f2p);
  const id = `${repoName}-mirror-${fix.sha.slice(0, 10)}`;
  await work.apply(sourcePatch, true);
  const missed = await hideFailing(work, setup, testFiles, f2p);
  if (missed.length > 0) {
    await work.reset();
    return { reason: `cannot find FAIL_TO_PASS test ${missed[0]} in its file to hide it` };
  }
  await dropAgentFiles(work);
  const base = await work.commitTree(id, `${repoName}: mirrored from ${fix.sha.slice(0, 10)}`);
  await work.reset();
  const patch = await work.diff(base, work.head, fix.sourceFiles);
  const testPatch = await work.diff(base, work.head, testFiles);
  const instance: Instance = {
    instance_id: id,
    repo: `local/${repoName}`,
    base_commit: base,
    patch,
    test_patch: testPatch,
    problem_statement: problemStatement({
      logParser: setup.logParser,
      language: setup.language,
      failing,
      log: broken.log,
      patch,
    }),
    hints_text: "",
    created_at: fix.date,
    version: work.head.slice(0, 12),
    environment_setup_commit: base,
    FAIL_TO_PASS: f2p,
    PASS_TO_PASS: p2p,
    test_command: [...setup.command, ...testFiles],
    log_parser: setup.logParser,
    language: setup.language,
    repo_path: "",
  };
  return { reason: `${f2p.length} FAIL_TO_PASS, ${p2p.length} PASS_TO_PASS`, instance };
}
