import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { LOG_PARSERS, type TestStatusMap } from "../parsers/index.js";
import type { BackendChoice, Sandbox } from "../sandbox/index.js";
import { type EnvMount, openTaskSandbox, runSetupCommands } from "../tasks/index.js";
import { git } from "../workspace/index.js";
import { type TestSetup, testArgv } from "./detect.js";

/** 120 s per test run: a builder's runs are the repository's own tests, not an agent's. */
export const BUILDER_TEST_TIMEOUT_MS = 120_000;
/** Logs are parsed, not shown to a model: keep up to 4 MB, as the grader does. */
const BUILDER_LOG_LIMIT = 4_000_000;

export interface TestRun {
  statuses: TestStatusMap;
  log: string;
  /** What the runner wrote to stderr (a usage error, an import failure before collection). */
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

/**
 * A private clone of the repository being mined, with one sandbox over its working tree. Builders
 * change files here, run the tests in the sandbox, record trees as commits and reset; the user's
 * repository is only read (the clone borrows its objects through git's alternates).
 */
export class WorkRepo {
  private constructor(
    readonly dir: string,
    readonly head: string,
    private readonly scratch: string,
    private sandbox: Sandbox,
    readonly warning: string | undefined,
    /** How long one test run may take before it counts as timed out. */
    readonly testTimeoutMs: number,
  ) {}

  static async create(
    repoPath: string,
    language: TestSetup["language"],
    backend?: BackendChoice,
    testTimeoutMs = BUILDER_TEST_TIMEOUT_MS,
  ) {
    // mkdtemp makes 0700 folders; the sandbox user must be able to reach the clone below it.
    const scratch = realpathSync(mkdtempSync(join(tmpdir(), "acilab-build-")));
    chmodSync(scratch, 0o755);
    try {
      const dir = join(scratch, "repo");
      // --shared, not hardlinks: the sandbox takes ownership of the clone, never of the user's objects.
      await git(scratch, ["clone", "-q", "--shared", "--no-tags", realpathSync(repoPath), dir]);
      const head = (await git(dir, ["rev-parse", "HEAD"])).trim();
      const { sandbox, warning } = await openTaskSandbox({ language }, dir, backend, {
        longestCommandMs: testTimeoutMs,
      });
      return new WorkRepo(dir, head, scratch, sandbox, warning, testTimeoutMs);
    } catch (err) {
      rmSync(scratch, { recursive: true, force: true });
      throw err;
    }
  }

  private environment: EnvMount | undefined;

  /**
   * Run every later test in an environment layer: the sandbox is opened again with it mounted, and
   * the files its install generated are put back after every checkout (`clean -fdx` removes them).
   */
  async useEnvironment(
    mount: EnvMount,
    language: TestSetup["language"],
    backend?: BackendChoice,
  ): Promise<void> {
    const { sandbox } = await openTaskSandbox({ language }, this.dir, backend, {
      environment: mount,
      longestCommandMs: this.testTimeoutMs,
    });
    await this.sandbox.close();
    this.sandbox = sandbox;
    this.environment = mount;
    await this.restoreGenerated();
  }

  private async restoreGenerated(): Promise<void> {
    const failed = await runSetupCommands(this.sandbox, this.environment?.setup ?? []);
    if (failed) throw new Error(`environment ${this.environment?.key}: ${failed}`);
  }

  git(args: string[], input?: string): Promise<string> {
    return git(this.dir, args, input === undefined ? {} : { input });
  }

  async files(rev = "HEAD"): Promise<string[]> {
    return (await this.git(["ls-tree", "-r", "--name-only", "-z", rev])).split("\0").filter(Boolean);
  }

  /** The commit the working tree is at (HEAD of the clone; `head` is the repository's own HEAD). */
  async current(): Promise<string> {
    return (await this.git(["rev-parse", "HEAD"])).trim();
  }

  /** Move the working tree to `rev` (detached), clean: later resets come back to it. */
  async checkout(rev: string): Promise<void> {
    await this.git(["checkout", "-q", "--force", "--detach", rev]);
    // Ignored files too: what one commit's runs generated must not reach another commit's.
    await this.git(["clean", "-q", "-fdx"]);
    await this.restoreGenerated();
  }

  /** Back to the checked-out commit: tracked files restored, untracked ones removed (ignored ones, e.g. installed deps, kept). */
  async reset(): Promise<void> {
    await this.git(["reset", "-q", "--hard", "HEAD"]);
    await this.git(["clean", "-q", "-fd"]);
  }

  /** Whether a patch would apply to the working tree (reversed with `reverse`), changing nothing. */
  async canApply(patch: string, reverse = false): Promise<boolean> {
    if (patch.trim() === "") return true;
    const file = join(this.scratch, "check.patch");
    writeFileSync(file, patch);
    try {
      await this.git(["apply", "--check", ...(reverse ? ["-R"] : []), file]);
      return true;
    } catch {
      return false;
    }
  }

  /** Apply a patch to the working tree (reversed with `reverse`); false when it does not apply. */
  async apply(patch: string, reverse = false): Promise<boolean> {
    const file = join(this.scratch, "apply.patch");
    writeFileSync(file, patch);
    const args = ["apply", ...(reverse ? ["-R"] : []), file];
    try {
      await this.git(["apply", "--check", ...args.slice(1)]);
    } catch {
      return false;
    }
    await this.git(args);
    return true;
  }

  async runTests(
    setup: TestSetup,
    files: readonly string[],
    timeoutMs = this.testTimeoutMs,
  ): Promise<TestRun> {
    const started = performance.now();
    const run = await this.sandbox.exec({
      argv: testArgv(setup, files),
      timeoutMs,
      outputLimit: BUILDER_LOG_LIMIT,
      // The tree is reset between runs: bytecode and caches written by one run must not leak into the next.
      env: { PYTHONDONTWRITEBYTECODE: "1" },
    });
    return {
      statuses: LOG_PARSERS[setup.logParser](run.stdout),
      log: run.stdout,
      stderr: run.stderr,
      exitCode: run.exitCode,
      timedOut: run.timedOut,
      durationMs: performance.now() - started,
    };
  }

  /**
   * Commit the working tree as a root commit (no parent: the task's history must not hold the fix),
   * tag it `acilab/<name>` so a bundle can carry it, and return its id.
   */
  async commitTree(name: string, message: string): Promise<string> {
    await this.git(["add", "-A"]);
    const tree = (await this.git(["write-tree"])).trim();
    const commit = (await this.git(["commit-tree", tree, "-m", message])).trim();
    await this.git(["tag", "-f", `acilab/${name}`, commit]);
    return commit;
  }

  /** `git diff a b -- paths`: the patch that turns tree `a` into tree `b` for those paths. */
  diff(a: string, b: string, paths: readonly string[]): Promise<string> {
    return this.git(["diff", "--no-color", "--no-renames", a, b, "--", ...paths]);
  }

  /** Write every tagged task commit into one bundle file (only their trees: no history). */
  async bundle(path: string, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    await this.git(["bundle", "create", "-q", path, ...names.map((n) => `refs/tags/acilab/${n}`)]);
  }

  async dispose(): Promise<void> {
    await this.sandbox.close();
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
