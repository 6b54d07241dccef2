import { basename } from "node:path";
import { z } from "zod";
import { lintWithFlake8, PYTHON_LINT_TIMEOUT_MS, PYTHON_SYNTAX_CODES } from "./flake8.js";
import { LineWorker, WorkerCrashedError, WorkerUnavailableError } from "./line-worker.js";
import { PYTHON_WORKER_SOURCE } from "./python-worker-source.js";
import type { LintIssue, LintReport } from "./types.js";

export { FLAKE8_SELECT, PYTHON_LINT_TIMEOUT_MS, setFlake8PathForTesting } from "./flake8.js";

/**
 * Debian's interpreter, the one whose python3-pyflakes Debian's flake8 uses, in isolated mode (-I): no
 * PYTHON* variables, user site-packages or current directory on sys.path, so no file in a workspace can
 * stand in for pyflakes.
 */
const WORKER_COMMAND = ["/usr/bin/python3", "-I", "-c", PYTHON_WORKER_SOURCE] as const;

const Reply = z.union([
  z.object({ issues: z.array(z.tuple([z.number(), z.number(), z.string(), z.string()])) }),
  z.object({ error: z.string() }),
]);

const Greeting = z.object({ pyflakes: z.string(), python: z.string() });

/** undefined: not started yet; null: cannot run in this process (the reason is kept for tests and logs). */
let worker: LineWorker | null | undefined;
let unavailable: string | undefined;

/** A lint worker process manager (the child starts on the first request). */
export function createPythonLintWorker(requestTimeoutMs = PYTHON_LINT_TIMEOUT_MS): LineWorker {
  const [command, ...args] = WORKER_COMMAND;
  return new LineWorker({ command, args, requestTimeoutMs });
}

function pythonWorker(): LineWorker | null {
  if (worker === undefined) worker = createPythonLintWorker();
  return worker;
}

/** The report from the lint worker, or undefined when it cannot give one and flake8 should be asked. */
async function lintWithWorker(
  lw: LineWorker,
  name: string,
  content: string,
): Promise<LintReport | undefined> {
  let raw: unknown;
  try {
    raw = await lw.request({ name, source: content });
  } catch (error) {
    if (error instanceof WorkerUnavailableError) {
      // Missing pyflakes or interpreter does not fix itself: stop trying for the rest of the process.
      unavailable = error.message;
      if (worker === lw) worker = null;
      return undefined;
    }
    // Killed twice by this content: flake8 may still manage it. A timeout is an infra failure, as with flake8.
    if (error instanceof WorkerCrashedError) return undefined;
    throw error;
  }
  const reply = Reply.parse(raw);
  // The checker raised on this file (a pyflakes bug, deep recursion): let flake8 have a go.
  if ("error" in reply) return undefined;
  const issues: LintIssue[] = reply.issues.map(([line, column, code, message]) => ({
    line,
    column,
    code,
    message,
    syntax: PYTHON_SYNTAX_CODES.has(code),
  }));
  const about = Greeting.safeParse(lw.greeting);
  const engine = about.success
    ? `lint worker (pyflakes ${about.data.pyflakes}, Python ${about.data.python})`
    : "lint worker";
  // The same codes and reports as flake8 (python-parity.test.ts), so the model is told "flake8".
  return { linter: "flake8", engine, issues, namesChecked: !issues.some((i) => i.syntax) };
}

/**
 * Lint Python source for the guardrail: the persistent lint worker when it runs, else a flake8 process,
 * else a syntax-only ast.parse. Only content is passed; nothing is read from `path`, which names the file
 * in reports (and matters to pyflakes: names in `__all__` are not checked in `__init__.py`).
 */
export async function lintPython(path: string, content: string): Promise<LintReport> {
  const name = basename(path).endsWith(".py") ? basename(path) : "module.py";
  const lw = pythonWorker();
  const report = lw ? await lintWithWorker(lw, name, content) : undefined;
  return report ?? lintWithFlake8(name, content);
}

/** Why the lint worker is not used in this process, or undefined when it is (or has not been tried). */
export function pythonWorkerUnavailable(): string | undefined {
  return unavailable;
}

/**
 * Test hook: use this worker (null: pretend none can run; undefined: the real one, started afresh).
 * The previous worker is closed.
 */
export function setPythonWorkerForTesting(next: LineWorker | null | undefined): void {
  if (worker && worker !== next) worker.close();
  worker = next;
  unavailable = undefined;
}
