/**
 * Why an attempt was not resolved, read from its stop reason and its trajectory: one primary class
 * (the one a person should look at first) and every class that applies. Pure: the caller reads the
 * trajectory; a missing or torn one still gets the classes its stop reason alone gives.
 */
import { isTestPath } from "../swebench/index.js";
import type { ActionRecord, TrajectoryRecord } from "../trajectory/index.js";

/**
 * In precedence order, first wins as the primary class:
 * - `infrastructure` first: the harness failed, so nothing the agent did means anything;
 * - then what the agent did to the repository (`destroyed_file`, `edited_tests`): it explains the
 *   failure better than how the run ended (a run that wiped a file and then hit the step cap failed
 *   because of the file);
 * - then how the run ended, as the stop reason says (`timeout`, `budget`, `step_cap`,
 *   `format_errors`, `stalled`);
 * - then `never_ran_tests`, which only explains a run that ended on its own with a wrong patch;
 * - `wrong_fix` when nothing else applies: it submitted, and the patch failed the tests.
 */
export const FAILURE_CLASSES = [
  "infrastructure",
  "destroyed_file",
  "edited_tests",
  "timeout",
  "budget",
  "step_cap",
  "format_errors",
  "stalled",
  "never_ran_tests",
  "wrong_fix",
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** What the trajectory of an attempt looked like when it was read. */
export type TrajectoryState = "ok" | "missing" | "truncated" | "unreadable";

export interface Failure {
  primary: FailureClass;
  all: FailureClass[];
}

/**
 * A whole-file write leaving fewer than this share of the file's lines "destroyed" it: the model
 * overwrote a file with a fragment or a placeholder (the failure write_file is known for).
 */
const DESTROYED_SHARE = 0.5;
/** Files shorter than this are not counted as destroyed: rewriting a 4-line file short is editing it. */
const DESTROYED_MIN_LINES = 10;
/** write_file's observation: `ok: wrote REL (N lines; it had M)` (src/tools/file/write-file.ts). */
const WROTE = /^ok: wrote (.+) \((\d+) lines?; it had (\d+)\)/;
/** Commands that run a test suite, whatever the task's own command is. */
const TEST_RUNNER =
  /\b(pytest|py\.test|unittest|tox|nox|vitest|jest|mocha|node --test|npm (run )?test|go test|cargo test|make test)\b/;

const BY_STOP: Record<string, FailureClass> = {
  policy_error: "infrastructure",
  env_error: "infrastructure",
  task_error: "infrastructure",
  page_misbehaved: "infrastructure",
  aborted: "infrastructure",
  time_limit: "timeout",
  budget: "budget",
  step_limit: "step_cap",
  format_errors: "format_errors",
  stalled: "stalled",
  repeated: "stalled",
};

/** An action and, for a code action, every tool call its program made, as (tool, input, output). */
function calls(action: ActionRecord): { tool: string; input: unknown; output: string }[] {
  return [
    { tool: action.call.name, input: action.call.input, output: action.observation },
    ...(action.calls ?? []).map((c) => ({ tool: c.tool, input: c.input, output: c.output })),
  ];
}

/** The files a whole-file write cut below DESTROYED_SHARE of their lines. */
export function destroyedFiles(actions: readonly ActionRecord[]): string[] {
  const files: string[] = [];
  for (const c of actions.flatMap(calls)) {
    if (c.tool !== "write_file") continue;
    const m = WROTE.exec(c.output);
    if (!m) continue;
    const after = Number(m[2]);
    const before = Number(m[3]);
    if (before >= DESTROYED_MIN_LINES && after < before * DESTROYED_SHARE) files.push(m[1] as string);
  }
  return files;
}

/** `ok: created REL (…)`: create_file's and write_file's observation for a file that was not there. */
const CREATED = /^ok: created (\S+) \(/;

/**
 * The test files an action changed that the agent had not created itself: a reproduction test it
 * adds (and then edits) is not "editing the tests". A file made by a shell command cannot be told
 * apart from one it changed (the trajectory records no before-state for it), so it counts.
 */
export function editedTests(actions: readonly ActionRecord[]): string[] {
  const created = new Set<string>();
  const edited = new Set<string>();
  for (const a of actions) {
    for (const c of calls(a)) {
      const m = CREATED.exec(c.output);
      if (m && (c.tool === "create_file" || c.tool === "write_file")) created.add(m[1] as string);
    }
    for (const f of a.files_changed) if (isTestPath(f) && !created.has(f)) edited.add(f);
  }
  return [...edited];
}

function commandOf(input: unknown): string {
  if (typeof input === "string") return input;
  if (typeof input === "object" && input !== null && "command" in input) {
    const command = (input as { command: unknown }).command;
    return Array.isArray(command) ? command.join(" ") : String(command);
  }
  return "";
}

/** A run_tests call, or a shell command running the task's test command or a known test runner. */
export function ranTests(actions: readonly ActionRecord[], testCommand?: readonly string[]): boolean {
  const own = testCommand?.join(" ");
  return actions.flatMap(calls).some((c) => {
    if (c.tool === "run_tests") return true;
    if (c.tool !== "shell") return false;
    const command = commandOf(c.input);
    return TEST_RUNNER.test(command) || (own !== undefined && own !== "" && command.includes(own));
  });
}

export interface FailureInput {
  stopReason: string | null;
  /** coding tasks have tests and a repository; tool-use and computer-use tasks have neither. */
  coding: boolean;
  /** The trajectory's records, or null when it could not be read at all. */
  records: readonly TrajectoryRecord[] | null;
  testCommand?: readonly string[];
}

/** The classes of an unresolved, graded attempt; see FAILURE_CLASSES for the precedence. */
export function classifyFailure(input: FailureInput): Failure {
  const found = new Set<FailureClass>();
  const byStop = input.stopReason === null ? undefined : BY_STOP[input.stopReason];
  if (byStop) found.add(byStop);
  if (input.records !== null && input.coding) {
    const actions = input.records.flatMap((r) => (r.type === "turn" ? r.actions : []));
    if (destroyedFiles(actions).length > 0) found.add("destroyed_file");
    if (editedTests(actions).length > 0) found.add("edited_tests");
    if (!ranTests(actions, input.testCommand)) found.add("never_ran_tests");
  }
  // A submitted patch that failed is a wrong fix whatever else applies; with no other class it is the one.
  if (input.stopReason === "submitted" || found.size === 0) found.add("wrong_fix");
  const all = FAILURE_CLASSES.filter((c) => found.has(c));
  return { primary: all[0] as FailureClass, all };
}
