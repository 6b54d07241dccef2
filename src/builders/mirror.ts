import { basename } from "node:path";
import type { BackendChoice } from "../sandbox/index.js";
import type { EnvironmentSpec, Instance } from "../swebench/index.js";
import {
  collectionError,
  dropAgentFiles,
  failingTests,
  hideFailing,
  importCause,
  namesTheClock,
  splitTests,
  submodulePaths,
  unusableRun,
  writeInstances,
} from "./assemble.js";
import { detectRepo, type TestCommandOverride, type TestSetup } from "./detect.js";
import { asFix, type FixCommit, recentCommits } from "./history.js";
import { problemStatement } from "./issue.js";
import { MirrorEnvironments } from "./mirror-environment.js";
import { isTestModule, languageOf } from "./paths.js";
import { type TestRun, WorkRepo } from "./workdir.js";

/** Commits walked back from HEAD: 700 reaches a small library's recent fixes. */
export const DEFAULT_MAX_COMMITS = 700;
/**
 * Fixes of at most 40 source lines: one issue's worth (mirrored fixes of small Python libraries
 * change 1–16 lines, median 4).
 */
export const DEFAULT_MAX_SRC_LINES = 40;

/**
 * Where a fix is mirrored: `head` undoes its source part on today's HEAD (SWE-smith's way); `fix`
 * takes the repository as the fix left it and undoes the source part there, so the base is the fix's
 * parent's code with the fix's tests (SWE-bench's way); `auto` tries HEAD and falls back to the fix
 * when the source part no longer reverse-applies at HEAD or its tests are gone.
 */
export type MirrorBase = "auto" | "head" | "fix";
export const MIRROR_BASES: readonly MirrorBase[] = ["auto", "head", "fix"];

export interface MirrorOptions {
  repo: string;
  out: string;
  maxCommits?: number;
  maxSrcLines?: number;
  base?: MirrorBase;
  /** Decide at most this many fix candidates, newest first (all by default). */
  maxCandidates?: number;
  /** Per test run; a run past it is a timeout (default BUILDER_TEST_TIMEOUT_MS). */
  testTimeoutMs?: number;
  testCommand?: TestCommandOverride;
  backend?: BackendChoice;
  /** Told about each candidate as it is decided. */
  onCandidate?: (c: CandidateOutcome) => void;
  /** Told once the history is read: how many fix candidates will be decided. */
  onPlan?: (candidates: number) => void;
  /**
   * The environment every test runs in: "auto" (detected at HEAD), a spec, or none (the sandbox's
   * own system Python). Built once at HEAD as a layer; the instances carry it.
   */
  environment?: "auto" | EnvironmentSpec;
  /** The interpreter `auto` names (default python3 on PATH). */
  python?: string;
  /** The node `auto` names for a JavaScript/TypeScript repository (default node on PATH). */
  node?: string;
  /** Told what the environment step decided and did, a line at a time. */
  onEnvironment?: (line: string) => void;
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
  if (setup.runner && !options.environment)
    throw new Error(
      `${options.repo}'s tests run with ${setup.runner}, one of its own dependencies: give --env auto to install them from its lock file (or --env FILE)`,
    );
  const work = await WorkRepo.create(options.repo, setup.language, options.backend, options.testTimeoutMs);
  const warnings = work.warning ? [work.warning] : [];
  try {
    const environments = options.environment
      ? await MirrorEnvironments.open(work, setup, { ...options, environment: options.environment })
      : undefined;
    const usedTags = new Set<string>();
    const commits = await recentCommits(work, options.maxCommits ?? DEFAULT_MAX_COMMITS);
    const fixes = commits
      .map(asFix)
      .filter((c): c is FixCommit => c !== undefined)
      .slice(0, options.maxCandidates ?? Number.POSITIVE_INFINITY);
    options.onPlan?.(fixes.length);
    const candidates: CandidateOutcome[] = [];
    const instances: Instance[] = [];
    const headRuns = new Map<string, TestRun>();
    const repoName = basename(options.repo.replace(/\/+$/, "")).replace(/\.git$/, "");
    for (const fix of fixes) {
      // One candidate the harness cannot handle (a tree git refuses to check out, a runner that
      // crashes) is that candidate's reason, never the end of the mirror.
      const decided = await mirrorFix(
        work,
        setup,
        fix,
        maxSrc,
        repoName,
        headRuns,
        options.base ?? "auto",
        environments,
      ).catch(
        (e: unknown): Decision => ({
          reason: `the builder failed on it: ${(e instanceof Error ? e.message : String(e)).split("\n")[0]}`,
        }),
      );
      const outcome: CandidateOutcome = {
        sha: fix.sha,
        subject: fix.subject,
        kept: "instance" in decided,
        reason: decided.reason,
        ...("instance" in decided ? { instanceId: decided.instance.instance_id } : {}),
      };
      if ("instance" in decided) {
        // The environment the instance was decided in: HEAD's, or its own commit's.
        const env = environments?.active;
        if (env) usedTags.add(env.tag);
        instances.push(
          env
            ? { ...decided.instance, environment_setup_commit: env.commit, acilab_env: env.spec }
            : decided.instance,
        );
      }
      candidates.push(outcome);
      options.onCandidate?.(outcome);
    }
    await work.checkout(work.head);
    const written = await writeInstances(options.out, work, instances, [...usedTags]);
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

/** A fix mirrored at `base` (auto: HEAD, then the fix itself when HEAD cannot take it). */
async function mirrorFix(
  work: WorkRepo,
  setup: TestSetup,
  fix: FixCommit,
  maxSrc: number,
  repoName: string,
  runs: Map<string, TestRun>,
  base: MirrorBase,
  environments: MirrorEnvironments | undefined,
): Promise<Decision> {
  if (fix.sourceLines > maxSrc)
    return { reason: `changes ${fix.sourceLines} source lines (more than --max-src-lines ${maxSrc})` };
  const atFix = async () => {
    await environments?.activate(fix.sha);
    return mirrorAt(work, setup, fix, repoName, runs, fix.sha);
  };
  if (base === "fix") return atFix();
  await environments?.activate(work.head);
  const atHead = await mirrorAt(work, setup, fix, repoName, runs, work.head);
  // The fix is HEAD itself: there is no other commit to try it at.
  if (base === "head" || "instance" in atHead || !("retry" in atHead) || fix.sha === work.head) return atHead;
  const fixed = await atFix();
  return "instance" in fixed
    ? { ...fixed, reason: `${fixed.reason}, at the fix (${atHead.reason})` }
    : { reason: `${atHead.reason}; at the fix: ${fixed.reason}` };
}

const setupsAt = new WeakMap<WorkRepo, Map<string, TestSetup>>();

/** The test setup at `rev`: as detected for HEAD when it was given by hand (--test-command). */
async function setupAt(work: WorkRepo, head: TestSetup, rev: string): Promise<TestSetup> {
  if (head.overridden) return head;
  let cache = setupsAt.get(work);
  if (!cache) {
    cache = new Map();
    setupsAt.set(work, cache);
  }
  let found = cache.get(rev);
  if (!found) {
    found = await detectRepo(work.dir, undefined, rev).catch(() => head);
    cache.set(rev, found);
  }
  return found;
}

/**
 * The fix mirrored on commit `rev`: its source part undone there, its test files run with and without
 * it. `retry` marks the reasons that belong to `rev` rather than to the fix (the fix's own commit may
 * take what HEAD cannot).
 */
async function mirrorAt(
  work: WorkRepo,
  setup: TestSetup,
  fix: FixCommit,
  repoName: string,
  runs: Map<string, TestRun>,
  rev: string,
): Promise<Decision | { reason: string; retry: true }> {
  const where = rev === work.head ? "HEAD" : "the fix";
  await work.checkout(rev);
  // The repository's layout and test settings may have changed since: detect them as they were.
  if (rev !== work.head) setup = await setupAt(work, setup, rev);
  const present = new Set(await work.files());
  // The runner's own idea of a test file where one was detected (mocha's test/, ava's test.js).
  const modules = new Set(setup.testFiles);
  const testFiles = fix.testFiles.filter(
    (f) => present.has(f) && (setup.runner ? modules.has(f) : isTestModule(f) && languageOf(f) !== undefined),
  );
  if (testFiles.length === 0)
    return { reason: `none of its test files is a test module at ${where}`, retry: true };
  const sourcePatch = await work.diff(`${fix.sha}^`, fix.sha, fix.sourceFiles);
  if (!(await work.apply(sourcePatch, true)))
    return { reason: `its source part no longer reverse-applies at ${where}`, retry: true };
  const broken = await work.runTests(setup, testFiles);
  await work.reset();
  // Runs at HEAD are shared by every fix of the same test files; a fix's own commit is used once.
  const key = testFiles.join("\0");
  let good = rev === work.head ? runs.get(key) : undefined;
  if (!good) {
    good = await work.runTests(setup, testFiles);
    if (rev === work.head) runs.set(key, good);
  }
  const bad = unusableRun(good);
  if (bad) return { reason: `its tests do not run at ${where}: ${bad}`, retry: true };
  const badBroken = unusableRun(broken);
  if (badBroken) return { reason: `its tests do not run with the fix undone: ${badBroken}` };
  // A test module that cannot even import without the fix tests a new API, not a bug; and a grader
  // cannot trust a base whose run stopped at collection (hardened rules reject that log).
  const brokenImport = collectionError(broken);
  if (brokenImport)
    return {
      reason: `with the fix undone ${brokenImport}${importCause(brokenImport, sourcePatch, await submodulePaths(work))}`,
    };
  const split = splitTests(good, broken);
  if (split.f2p.length === 0) {
    const collection = collectionError(good) ?? collectionError(broken);
    // Nothing passes even with the fix: the tests cannot run here (a runner or module system newer than them).
    const firstFailure = [...good.statuses].find(([, st]) => st === "FAILED" || st === "ERROR")?.[0];
    const nonePass = ![...good.statuses.values()].some((st) => st === "PASSED");
    return {
      reason: collection
        ? `no FAIL_TO_PASS: ${collection}`
        : nonePass && firstFailure
          ? `no FAIL_TO_PASS: none of its ${good.statuses.size} tests passes even with the fix (first: ${firstFailure.slice(0, 140)})`
          : `no FAIL_TO_PASS: none of its ${good.statuses.size} tests fails with the fix undone`,
    };
  }
  // Test ids made from the clock or a random seed change from run to run: a task must not name one.
  const again = await work.runTests(setup, testFiles);
  await work.reset();
  // A clock-made id (datetime.now() at minute resolution) survives two runs a second apart: it is
  // recognized by spelling the time the runs were made at.
  // (Runs whose minutes differ give different ids, which the comparison itself catches.)
  const moments = [new Date()];
  const stable = (id: string) =>
    again.statuses.get(id) === good.statuses.get(id) && !namesTheClock(id, moments);
  const f2p = split.f2p.filter(stable);
  const p2p = split.p2p.filter(stable);
  const unstable = split.f2p.length + split.p2p.length - f2p.length - p2p.length;
  if (f2p.length === 0)
    return {
      reason: `no FAIL_TO_PASS: its ${split.f2p.length} failing test(s) are not the same in two runs of the fixed code (ids or results change from run to run)`,
    };

  const failing = await failingTests(work, setup, testFiles, f2p);
  const id = `${repoName}-mirror-${fix.sha.slice(0, 10)}`;
  const version = await work.current();
  await work.apply(sourcePatch, true);
  const missed = await hideFailing(work, setup, testFiles, f2p);
  if (missed.length > 0) {
    await work.reset();
    return { reason: `cannot find FAIL_TO_PASS test ${missed[0]} in its file to hide it` };
  }
  await dropAgentFiles(work);
  const base = await work.commitTree(id, `${repoName}: mirrored from ${fix.sha.slice(0, 10)}`);
  await work.reset();
  const patch = await work.diff(base, version, fix.sourceFiles);
  const testPatch = await work.diff(base, version, testFiles);
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
    version: version.slice(0, 12),
    environment_setup_commit: base,
    FAIL_TO_PASS: f2p,
    PASS_TO_PASS: p2p,
    test_command: [...setup.command, ...testFiles],
    log_parser: setup.logParser,
    language: setup.language,
    repo_path: "",
  };
  const dropped = unstable > 0 ? ` (${unstable} test(s) dropped: not the same in two runs)` : "";
  return { reason: `${f2p.length} FAIL_TO_PASS, ${p2p.length} PASS_TO_PASS${dropped}`, instance };
}
