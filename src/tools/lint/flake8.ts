import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LintIssue, LintReport } from "./types.js";

/** SWE-agent's selection: syntax, indentation and undefined names; style is not the guardrail's business. */
export const FLAKE8_SELECT = "F821,F822,F831,E111,E112,E113,E999,E902";

/**
 * One Python lint, worker or flake8: the worker needs ~0.1 s for 3,000 lines and flake8 ~1 s, so 20 s
 * only trips on a wedged interpreter or a pathological file, and then the lint is an infra failure.
 */
export const PYTHON_LINT_TIMEOUT_MS = 20_000;

/** flake8's output for a file with a few issues is tiny; 8 MiB only guards against a runaway plugin. */
const FLAKE8_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

/** Debian's packaged flake8 first (its plugins are fixed), then whatever is on PATH. */
const FLAKE8_CANDIDATES = ["/usr/bin/flake8"];

/** Codes that mean "the file does not parse"; pyflakes checks no names after one of them. */
export const PYTHON_SYNTAX_CODES = new Set(["E999", "E902", "E112", "E113"]);

/** Parses only (ast.parse never runs the code); prints "line\tcol\tKind: message" for a syntax error. */
const AST_CHECK = [
  "import ast, sys",
  "src = sys.stdin.read()",
  "try:",
  "    ast.parse(src, filename=sys.argv[1])",
  "except SyntaxError as e:",
  "    print(f'{e.lineno or 1}\\t{e.offset or 1}\\tE999\\t{type(e).__name__}: {e.msg}')",
].join("\n");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  missing: boolean;
}

function run(command: string, args: string[], cwd: string, stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { cwd, timeout: PYTHON_LINT_TIMEOUT_MS, maxBuffer: FLAKE8_MAX_OUTPUT_BYTES, encoding: "utf8" },
      (err, stdout, stderr) => {
        if (err && (err as NodeJS.ErrnoException).code === "ENOENT") {
          resolve({ code: null, stdout: "", stderr: "", missing: true });
          return;
        }
        if (err?.killed) {
          reject(new Error(`${command} did not finish within ${PYTHON_LINT_TIMEOUT_MS} ms`));
          return;
        }
        const code = err ? (typeof err.code === "number" ? err.code : null) : 0;
        resolve({ code, stdout, stderr, missing: false });
      },
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

let flake8Path: string | null | undefined;

/** The flake8 executable to use, or null when there is none (looked up once per process). */
async function findFlake8(scratch: string): Promise<string | null> {
  if (flake8Path !== undefined) return flake8Path;
  const packaged = FLAKE8_CANDIDATES.find((p) => existsSync(p));
  if (packaged) {
    flake8Path = packaged;
  } else {
    const probe = await run("flake8", ["--version"], scratch);
    flake8Path = probe.missing ? null : "flake8";
  }
  return flake8Path;
}

/** Issues from "row\tcol\tcode\ttext" lines, the format both flake8 and AST_CHECK are told to print. */
export function parseIssueLines(stdout: string): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const raw of stdout.split("\n")) {
    const [line, column, code, ...rest] = raw.split("\t");
    if (!line || !column || !code || rest.length === 0) continue;
    issues.push({
      line: Number(line),
      column: Number(column),
      code,
      message: rest.join("\t").trim(),
      syntax: PYTHON_SYNTAX_CODES.has(code),
    });
  }
  return issues;
}

/**
 * Lint with a flake8 process on a temporary copy outside the workspace (the workspace may hold a
 * setup.cfg, and flake8 must never read the model's files through a path it chose). Falls back to a
 * syntax-only ast.parse when flake8 is not installed, and says so in `linter`. ~1 s per call: the path
 * taken only when the lint worker cannot run.
 */
export async function lintWithFlake8(name: string, content: string): Promise<LintReport> {
  const scratch = await mkdtemp(join(tmpdir(), "acilab-lint-"));
  try {
    const flake8 = await findFlake8(scratch);
    if (flake8 !== null) {
      await writeFile(join(scratch, name), content, "utf8");
      const format = "--format=%(row)d\t%(col)d\t%(code)s\t%(text)s";
      // "./" so that a file named like an option ("-x.py") is still a file to flake8.
      const result = await run(
        flake8,
        ["--isolated", `--select=${FLAKE8_SELECT}`, format, `./${name}`],
        scratch,
      );
      const issues = parseIssueLines(result.stdout);
      // flake8 exits 1 when it reports issues, and also when it crashes (a traceback, no issues).
      if (!(result.code === 0 || (result.code === 1 && issues.length > 0))) {
        throw new Error(`flake8 failed (exit ${result.code}): ${result.stderr.trim().slice(-500)}`);
      }
      return {
        linter: "flake8",
        engine: "flake8 process",
        issues,
        namesChecked: !issues.some((i) => i.syntax),
      };
    }
    const result = await run("python3", ["-c", AST_CHECK, name], scratch, content);
    if (result.missing || result.code !== 0) {
      throw new Error(
        `neither flake8 nor python3 could check ${name}: ${result.stderr.trim().slice(0, 500)}`,
      );
    }
    return {
      linter: "python ast (flake8 not found; syntax only)",
      issues: parseIssueLines(result.stdout).map((i) => ({ ...i, syntax: true })),
      namesChecked: false,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Test hook: forget the cached flake8 lookup, or pretend it is (not) installed. */
export function setFlake8PathForTesting(path: string | null | undefined): void {
  flake8Path = path;
}
