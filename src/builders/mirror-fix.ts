import { suiteRan } from "../parsers/index.js";
import type { Instance } from "../swebench/index.js";
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
} from "./assemble.js";
import { dropFixDocumentation } from "./changelog.js";
import { detectRepo, type TestSetup } from "./detect.js";
import { type AddedApi, addedApi, describeApi, type KindChoice, usedByTests } from "./feature.js";
import type { FixCommit } from "./history.js";
import { problemStatement } from "./issue.js";
import type { MirrorEnvironments } from "./mirror-environment.js";
import { languageOf, type TestPaths } from "./paths.js";
import { hideByFile, modulesLoading } from "./test-data.js";
import type { TestRun, WorkRepo } from "./workdir.js";

/**
 * Where a fix is mirrored: `head` undoes its source part on today's HEAD (SWE-smith's way); `fix`
 * takes the repository as the fix left it and undoes the source part there, so the base is the fix's
 * parent's code with the fix's tests (SWE-bench's way); `auto` tries HEAD and falls back to the fix
 * when the source part no longer reverse-applies at HEAD or its tests are gone.
 */
export type MirrorBase = "auto" | "head" | "fix";
export const MIRROR_BASES: readonly MirrorBase[] = ["auto", "head", "fix"];

/** What deciding a candidate needs, the same for every candidate of one mirror. */
export interface FixContext {
  work: WorkRepo;
  /** HEAD's test setup. */
  setup: TestSetup;
  paths: TestPaths;
  repoName: string;
  /** Runs at HEAD, shared by every fix of the same test files. */
  headRuns: Map<string, TestRun>;
  base: MirrorBase;
  maxSrcLines: number;
  kind: KindChoice;
  environments: MirrorEnvironments | undefined;
}

export type Decision = { reason: string } | { reason: string; instance: Instance };
type AtDecision = Decision | { reason: string; retry: true };

/** A change as `--kind` sees it: a bug fix, or a feature adding the API its tests use. */
type Change = { kind: "fix" } | { kind: "feature"; api: AddedApi[] };

/** Read from the change's own diff and files: no checkout, no environment, no test run. */
async function classify(work: WorkRepo, fix: FixCommit): Promise<Change> {
  const api = await addedApi(
    fix.sourceFiles,
    (path, side) =>
      work.git(["show", `${side === "old" ? `${fix.sha}^` : fix.sha}:${path}`]).catch(() => undefined),
    // Anywhere in the parent's tree (code, tests, docs): an option the project had already.
    (name) =>
      work.git(["grep", "-q", "-w", "-F", "-e", name, `${fix.sha}^`, "--"]).then(
        () => true,
        () => false,
      ),
  );
  if (api.length === 0) return { kind: "fix" };
  const used = usedByTests(api, await work.diff(`${fix.sha}^`, fix.sha, fix.testFiles));
  return used.length > 0 ? { kind: "feature", api: used } : { kind: "fix" };
}

/**
 * A fix mirrored at `ctx.base` (auto: HEAD, then the fix itself when HEAD cannot take it). The cheap
 * checks — its size, what it is (`--kind`), its test files, whether its source part reverse-applies —
 * come before any environment is built or test run.
 */
export async function mirrorFix(ctx: FixContext, fix: FixCommit): Promise<Decision> {
  if (fix.sourceLines > ctx.maxSrcLines)
    return {
      reason: `changes ${fix.sourceLines} source lines (more than --max-src-lines ${ctx.maxSrcLines})`,
    };
  const change = await classify(ctx.work, fix);
  if (change.kind === "feature" && ctx.kind === "fix")
    return {
      reason: `adds API: ${describeApi(change.api)} — a feature its tests use, not a bug fix (--kind feature keeps it)`,
    };
  if (change.kind === "fix" && ctx.kind === "feature")
    return { reason: "a bug fix: it adds no API its tests use (--kind fix keeps it)" };
  const atFix = () => mirrorAt(ctx, fix, change, fix.sha);
  if (ctx.base === "fix") return atFix();
  const atHead = await mirrorAt(ctx, fix, change, ctx.work.head);
  // The fix is HEAD itself: there is no other commit to try it at.
  if (ctx.base === "head" || "instance" in atHead || !("retry" in atHead) || fix.sha === ctx.work.head)
    return atHead;
  const fixed = await atFix();
  return "instance" in fixed
    ? { ...fixed, reason: `${fixed.reason}, at the fix (${atHead.reason})` }
    : { reason: `${atHead.reason}; at the fix: ${fixed.reason}` };
}

const setupsAt = new WeakMap<WorkRepo, Map<string, TestSetup>>();

/** The test setup at `rev`: as detected for HEAD when it was given by hand (--test-command). */
async function setupAt(ctx: FixContext, rev: string): Promise<TestSetup> {
  if (ctx.setup.overridden) return ctx.setup;
  let cache = setupsAt.get(ctx.work);
  if (!cache) {
    cache = new Map();
    setupsAt.set(ctx.work, cache);
  }
  let found = cache.get(rev);
  if (!found) {
    found = await detectRepo(ctx.work.dir, undefined, rev, ctx.paths).catch(() => ctx.setup);
    cache.set(rev, found);
  }
  return found;
}

/** A seeded generator in a test: its expected values are the reference implementation's exact draws. */
const SEEDED = /\b(?:random\.seed|seed|Random|default_rng|RandomState|manual_seed)\(\s*[\w.]+/;

/**
 * The fix mirrored on commit `rev`: its source part undone there, its test files (and the test modules
 * that load the fixture files it changed) run with and without it. `retry` marks the reasons that
 * belong to `rev` rather than to the fix (the fix's own commit may take what HEAD cannot).
 */
async function mirrorAt(ctx: FixContext, fix: FixCommit, change: Change, rev: string): Promise<AtDecision> {
  const { work } = ctx;
  const where = rev === work.head ? "HEAD" : "the fix";
  await work.checkout(rev);
  // The repository's layout and test settings may have changed since: detect them as they were.
  const setup = rev === work.head ? ctx.setup : await setupAt(ctx, rev);
  const present = new Set(await work.files());
  // The runner's own idea of a test file where one was detected (mocha's test/, ava's test.js).
  const modules = new Set(setup.testFiles);
  const isModule = (f: string) =>
    setup.runner ? modules.has(f) : ctx.paths.isTestModule(f) && languageOf(f) !== undefined;
  const changedModules = fix.testFiles.filter((f) => present.has(f) && isModule(f));
  // Fixture and helper files the fix changed (a row added to test/fixtures/range-parse.js): the test
  // modules that load them test the fix too, and they are hidden by file.
  const support = fix.testFiles.filter((f) => !isModule(f));
  const loaders = modulesLoading(
    work.dir,
    setup.testFiles.filter((f) => present.has(f) && !changedModules.includes(f)),
    support.filter((f) => present.has(f)),
  );
  const testFiles = [...changedModules, ...loaders];
  if (testFiles.length === 0)
    return {
      reason: `none of its test files is a test module at ${where}${support.length > 0 ? `, and no test module there loads ${support.slice(0, 3).join(", ")}` : ""}`,
      retry: true,
    };
  const sourcePatch = await work.diff(`${fix.sha}^`, fix.sha, fix.sourceFiles);
  if (!(await work.canApply(sourcePatch, true)))
    return { reason: `its source part no longer reverse-applies at ${where}`, retry: true };
  let byFile = support.length > 0;
  if (byFile && rev !== fix.sha && !(await work.canApply(await testChange(work, fix), true)))
    return {
      reason: `its test change no longer reverse-applies at ${where}: its test and fixture files cannot be hidden by file there`,
      retry: true,
    };
  // The cheap checks passed: only now is the environment this commit is tested in built (or found).
  await ctx.environments?.activate(rev);
  await work.apply(sourcePatch, true);
  const broken = await work.runTests(setup, testFiles);
  await work.reset();
  const key = testFiles.join("\0");
  let good = rev === work.head ? ctx.headRuns.get(key) : undefined;
  if (!good) {
    good = await work.runTests(setup, testFiles);
    if (rev === work.head) ctx.headRuns.set(key, good);
  }
  const bad = unusableRun(good);
  if (bad) return { reason: `its tests do not run at ${where}: ${bad}`, retry: true };
  // The grader takes a log only with its runner's sign that the suite ran to its end: a task whose
  // gold run has none could never resolve.
  const ended = suiteRan(setup.logParser, good.log);
  if (!ended.ran) {
    // A module that does not import is the telling reason (a dependency missing here), not the log's end.
    const collection = collectionError(good);
    return {
      reason: collection
        ? `its tests do not run at ${where}: ${collection}`
        : `its test log is not one the grader trusts at ${where}: ${ended.why}`,
      retry: true,
    };
  }
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
  const moments = [new Date()];
  // An id must say which file its test is in: a runner's output read without it (tap 14's buffered
  // subtests gave ` > range parsing > …`) names no test a grader can find again.
  const unnamed = (id: string) => id.startsWith(" > ") || id.trim() === "";
  const stable = (id: string) =>
    again.statuses.get(id) === good.statuses.get(id) && !namesTheClock(id, moments) && !unnamed(id);
  const f2p = split.f2p.filter(stable);
  const p2p = split.p2p.filter(stable);
  const nameless = [...split.f2p, ...split.p2p].filter(unnamed).length;
  const dropped = split.f2p.length + split.p2p.length - f2p.length - p2p.length - nameless;
  if (f2p.length === 0)
    return {
      reason: `no FAIL_TO_PASS: its ${split.f2p.length} failing test(s) are not the same in two runs of the fixed code (ids or results change from run to run)`,
    };

  const failing = await failingTests(work, setup, testFiles, f2p);
  if (change.kind === "feature" && failing.some((t) => t.body !== undefined && SEEDED.test(t.body)))
    return {
      reason: `adds API: ${describeApi(change.api)}, and its test expects the exact draws of a seeded random generator, which only the reference implementation's order of random calls gives`,
    };
  const id = `${ctx.repoName}-mirror-${fix.sha.slice(0, 10)}`;
  const version = await work.current();
  await work.apply(sourcePatch, true);
  if (!byFile) {
    const missed = await hideFailing(work, setup, testFiles, f2p);
    if (missed.length > 0) {
      // Tests named at run time (a row of a `cases` table): hide the change's test files instead.
      await work.reset();
      await work.apply(sourcePatch, true);
      byFile = true;
    }
  }
  if (byFile) {
    const why = await hideByFile(work, fix, fix.testFiles, rev);
    if (why) {
      await work.reset();
      return { reason: `cannot hide its tests: ${why}`, retry: true };
    }
  }
  await dropFixDocumentation(work, fix, rev);
  await dropAgentFiles(work);
  const base = await work.commitTree(id, `${ctx.repoName}: mirrored from ${fix.sha.slice(0, 10)}`);
  await work.reset();
  const patch = await work.diff(base, version, fix.sourceFiles);
  const testPatch = await work.diff(base, version, [...new Set([...testFiles, ...fix.testFiles])]);
  const instance: Instance = {
    instance_id: id,
    repo: `local/${ctx.repoName}`,
    base_commit: base,
    patch,
    test_patch: testPatch,
    problem_statement: problemStatement({
      logParser: setup.logParser,
      language: setup.language,
      failing,
      log: broken.log,
      patch,
      ...(change.kind === "feature" ? { adds: change.api } : {}),
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
  const notes = [
    ...(dropped > 0 ? [`${dropped} test(s) dropped: not the same in two runs`] : []),
    ...(nameless > 0 ? [`${nameless} test(s) dropped: their ids name no file`] : []),
    ...(byFile ? ["tests hidden by file"] : []),
    ...(change.kind === "feature" ? [`adds API: ${describeApi(change.api)}`] : []),
  ];
  return {
    reason: `${f2p.length} FAIL_TO_PASS, ${p2p.length} PASS_TO_PASS${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`,
    instance,
  };
}

/** The fix's change to its test files, as one patch. */
function testChange(work: WorkRepo, fix: FixCommit): Promise<string> {
  return work.diff(`${fix.sha}^`, fix.sha, fix.testFiles);
}
