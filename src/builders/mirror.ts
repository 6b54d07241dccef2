import { existsSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { BackendChoice } from "../sandbox/index.js";
import type { EnvironmentSpec, Instance } from "../swebench/index.js";
import { detectRepo, type TestCommandOverride, type TestSetup } from "./detect.js";
import type { KindChoice } from "./feature.js";
import { asFix, type FixCommit, recentCommits } from "./history.js";
import { MirrorEnvironments } from "./mirror-environment.js";
import { type Decision, type MirrorBase, mirrorFix } from "./mirror-fix.js";
import { MirrorOutput, type MirrorSettings } from "./mirror-output.js";
import { testPaths } from "./paths.js";
import { type TestRun, WorkRepo } from "./workdir.js";

export { MIRROR_BASES, type MirrorBase } from "./mirror-fix.js";

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
  base?: MirrorBase;
  /** Decide at most this many fix candidates, newest first (all by default). */
  maxCandidates?: number;
  /** Per test run; a run past it is a timeout (default BUILDER_TEST_TIMEOUT_MS). */
  testTimeoutMs?: number;
  testCommand?: TestCommandOverride;
  /** Globs naming the repository's test modules (`test.py`, `spec/**\/*.js`), instead of the conventions. */
  testFiles?: readonly string[];
  /** Which changes to keep: bug fixes (default), features (they add the API their tests use), or all. */
  kind?: KindChoice;
  backend?: BackendChoice;
  /** Go on from the candidates log of a stopped mirror with the same repository, HEAD and settings. */
  resume?: boolean;
  /** Stop after the candidate being decided (its runs are abandoned); what was decided is kept. */
  signal?: AbortSignal;
  /** Told about each candidate as it is decided (`resumed`: decided by the run being resumed). */
  onCandidate?: (c: CandidateOutcome) => void;
  /** Told once the history is read: how many fix candidates there are, how many decided already. */
  onPlan?: (candidates: number, decided: number) => void;
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
  /** Told of anything worth a warning (an earlier run's output replaced). */
  onWarning?: (line: string) => void;
}

/** One fix commit and what became of it. */
export interface CandidateOutcome {
  sha: string;
  subject: string;
  kept: boolean;
  /** For a kept one: "N FAIL_TO_PASS, M PASS_TO_PASS"; else why it was skipped. */
  reason: string;
  instanceId?: string;
  /** Decided by the stopped run that `--resume` continues. */
  resumed?: boolean;
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
  /** Set when a signal stopped the mirror: how many of how many candidates were decided. */
  stopped?: { decided: number; total: number; log: string };
}

/** What the caller did not ask to see stays quiet. */
const quiet = () => undefined;

/**
 * PR mirroring (as SWE-smith and SWE-bench do it): take fixes that already landed, undo each one's
 * source part on today's HEAD (or at the fix), and keep the tests of its files that pass with the fix
 * and fail without it. Each kept instance is written as it is found (mirror-output.ts).
 */
export async function mirror(options: MirrorOptions): Promise<BuildReport> {
  if (!existsSync(options.repo) || !statSync(options.repo).isDirectory())
    throw new Error(`--repo ${options.repo}: no such folder — give the path of a git checkout with tests`);
  const paths = testPaths(options.testFiles);
  const setup = await detectRepo(options.repo, options.testCommand, "HEAD", paths);
  if (setup.runner && !options.environment)
    throw new Error(
      `${options.repo}'s tests run with ${setup.runner}, one of its own dependencies: give --env auto to install them from its lock file (or --env FILE)`,
    );
  const work = await WorkRepo.create(options.repo, setup.language, options.backend, options.testTimeoutMs);
  const warnings = work.warning ? [work.warning] : [];
  const base = options.base ?? "auto";
  const kind = options.kind ?? "fix";
  const maxSrcLines = options.maxSrcLines ?? DEFAULT_MAX_SRC_LINES;
  const maxCommits = options.maxCommits ?? DEFAULT_MAX_COMMITS;
  try {
    const settings: MirrorSettings = {
      max_commits: maxCommits,
      max_src_lines: maxSrcLines,
      max_candidates: options.maxCandidates ?? null,
      base,
      kind,
      test_files: [...(options.testFiles ?? [])],
      test_command: options.testCommand?.command ?? null,
      log_parser: options.testCommand?.logParser ?? null,
      environment:
        options.environment === undefined
          ? null
          : options.environment === "auto"
            ? `auto ${options.python ?? options.node ?? ""}`.trim()
            : JSON.stringify(options.environment),
    };
    const output = await MirrorOutput.open(
      options.out,
      work,
      { repo: resolve(options.repo), head: work.head, settings, resume: options.resume === true },
      (line) => {
        warnings.push(line);
        (options.onWarning ?? quiet)(line);
      },
    );
    const commits = await recentCommits(work, maxCommits);
    const fixes = commits
      .map((c) => asFix(c, paths))
      .filter((c): c is FixCommit => c !== undefined)
      .slice(0, options.maxCandidates ?? Number.POSITIVE_INFINITY);
    options.onPlan?.(fixes.length, fixes.filter((f) => output.decided.has(f.sha)).length);
    const environments = options.environment
      ? await MirrorEnvironments.open(work, setup, {
          ...options,
          repo: resolve(options.repo),
          environment: options.environment,
        })
      : undefined;
    const candidates: CandidateOutcome[] = [];
    const repoName = basename(resolve(options.repo).replace(/\/+$/, "")).replace(/\.git$/, "");
    const ctx = {
      work,
      setup,
      paths,
      repoName,
      headRuns: new Map<string, TestRun>(),
      base,
      maxSrcLines,
      kind,
      environments,
    };
    for (const fix of fixes) {
      const earlier = output.decided.get(fix.sha);
      if (earlier) {
        const outcome: CandidateOutcome = {
          sha: earlier.sha,
          subject: earlier.subject,
          kept: earlier.kept,
          reason: earlier.reason,
          ...(earlier.instanceId ? { instanceId: earlier.instanceId } : {}),
          resumed: true,
        };
        candidates.push(outcome);
        options.onCandidate?.(outcome);
        continue;
      }
      if (options.signal?.aborted) break;
      // One candidate the harness cannot handle (a tree git refuses to check out, a runner that
      // crashes) is that candidate's reason, never the end of the mirror.
      const deciding = mirrorFix(ctx, fix).catch(
        (e: unknown): Decision => ({
          reason: `the builder failed on it: ${(e instanceof Error ? e.message : String(e)).split("\n")[0]}`,
        }),
      );
      // On a signal the candidate in flight is abandoned: its sandbox is closed below, its runs end,
      // and nothing of it is recorded (a resume decides it again).
      const decided = await untilAborted(deciding, options.signal);
      if (decided === undefined) break;
      let instanceId: string | undefined;
      if ("instance" in decided) {
        // The environment the instance was decided in: HEAD's, or its own commit's.
        const env = environments?.active;
        const instance = env
          ? { ...decided.instance, environment_setup_commit: env.commit, acilab_env: env.spec }
          : decided.instance;
        await output.keep(instance, env?.tag);
        instanceId = instance.instance_id;
      }
      const outcome: CandidateOutcome = {
        sha: fix.sha,
        subject: fix.subject,
        kept: instanceId !== undefined,
        reason: decided.reason,
        ...(instanceId ? { instanceId } : {}),
      };
      output.record(outcome);
      candidates.push(outcome);
      options.onCandidate?.(outcome);
    }
    const stopped = options.signal?.aborted && candidates.length < fixes.length;
    return {
      instances: output.instances,
      candidates,
      scanned: commits.length,
      notFixes: commits.length - fixes.length,
      setup,
      bundle: output.instances.length > 0 ? output.bundle : undefined,
      warnings,
      ...(stopped ? { stopped: { decided: candidates.length, total: fixes.length, log: output.log } } : {}),
    };
  } finally {
    await work.dispose();
  }
}

/** The promise's value, or undefined as soon as `signal` aborts (the promise is left running). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((done, fail) => {
    const onAbort = () => done(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        done(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        fail(e);
      },
    );
  });
}
