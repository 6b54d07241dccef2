import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { EnvMount } from "../envlayers/index.js";
import {
  type BackendChoice,
  DEFAULT_LIMITS,
  defaultBackend,
  openSandbox,
  type ReadOnlyBind,
  type Sandbox,
} from "../sandbox/index.js";
import { packageRoot, taskEnvironment } from "./task.js";

/**
 * The sandbox a task's commands run in. TypeScript tasks see acilab's node_modules read-only, so
 * `node --import <tsx loader>` works inside; nothing else of the host's beyond the system is bound.
 * `readOnlyParts` are workspace paths kept read-only inside (the grader passes `.git`).
 */
export async function openTaskSandbox(
  task: { language: string },
  root: string,
  backend: BackendChoice = defaultBackend(),
  options: {
    fromSnapshot?: boolean;
    allowNet?: readonly string[];
    readOnlyParts?: readonly string[];
    /** The task's environment layer (instanceEnvironment): mounted read-only at /env, first on PATH. */
    environment?: EnvMount | undefined;
    /** The longest wall-clock limit a command here gets (the test command's): see cpuLimitFor. */
    longestCommandMs?: number;
  } = {},
): Promise<{ sandbox: Sandbox; warning?: string }> {
  // At its real path: Node resolves the tsx loader through symlinks (a linked node_modules, pnpm).
  const readOnlyBinds: ReadOnlyBind[] =
    task.language === "typescript" ? [realpathSync(join(packageRoot(), "node_modules"))] : [];
  readOnlyBinds.push(...(options.environment?.binds ?? []));
  // Parts of the workspace nothing inside may change (the grader's `.git`).
  for (const part of options.readOnlyParts ?? []) readOnlyBinds.push({ inWorkspace: part });
  // A checkout of a snapshot already belongs to the sandbox user (checkoutAt): skip the walk.
  const adoptWorkspace = options.fromSnapshot !== true;
  // A repository's tests may serve on their own loopback (supertest, an HTTP client's suite); the
  // sandbox's network namespace has nothing else, so an environment's tasks get inet sockets for it.
  const network =
    options.allowNet && options.allowNet.length > 0
      ? { allow: [...options.allowNet] }
      : options.environment
        ? ("loopback" as const)
        : ("none" as const);
  return openSandbox({
    workspace: root,
    ...(options.longestCommandMs ? { limits: { cpuSeconds: cpuLimitFor(options.longestCommandMs) } } : {}),
    env: { ...taskEnvironment(task), ...options.environment?.env },
    readOnlyBinds,
    backend,
    adoptWorkspace,
    network,
  });
}

/**
 * The per-process CPU limit (RLIMIT_CPU) for a sandbox whose longest command may run `wallMs`: never
 * below it. The default (600 s) would otherwise end a single-threaded test run that computes for 10
 * minutes of its 30 (SWE-bench's limit; sympy's test_expr.py without its cache on a quiet machine)
 * with SIGXCPU, read as a failing run, where the wall clock is the limit the row was given.
 */
export function cpuLimitFor(wallMs: number): number {
  return Math.max(DEFAULT_LIMITS.cpuSeconds, Math.ceil(wallMs / 1000));
}

/** Bounds each setup line: an install, not a test run. */
export const SETUP_TIMEOUT_MS = 300_000;

/**
 * A task's setup lines (an instance's setup_commands) in its sandbox, in order, each through bash;
 * the first that fails ends it. Undefined when all passed, else what failed with the end of its
 * output. The grader and the agent's sandbox run the same lines the same way.
 */
export async function runSetupCommands(
  sandbox: Sandbox,
  lines: readonly string[],
  before: (line: string) => void = () => undefined,
): Promise<string | undefined> {
  for (const line of lines) {
    before(line);
    const r = await sandbox.exec({ argv: ["bash", "-c", line], timeoutMs: SETUP_TIMEOUT_MS });
    if (r.exitCode !== 0)
      return `setup command failed (exit ${r.exitCode}): ${line}\n${r.output.slice(-2000)}`;
  }
  return undefined;
}
