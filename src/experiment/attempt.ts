/**
 * One attempt: an arm's RunSpec → its task's kind (the one `runnableFor`) → a run through the one
 * composition root, and its result.json → the row the store keeps.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type CuaTask, getCuaTask, loadTaskFile, type TaskFile } from "../cua/index.js";
import { loadScript } from "../policies/index.js";
import {
  type AnyRunTask,
  actorSpec,
  allInput,
  observeFor,
  type RunResult,
  type RunSpec,
  runKind,
  runnableFor,
} from "../run/index.js";
import { type Instance, isTestPath } from "../swebench/index.js";
import {
  instanceTask,
  loadTask,
  referenceScript,
  type Task,
  TOOLS_TASKS,
  taskFromInstance,
} from "../tasks/index.js";
import { toolset } from "../tools/index.js";
import { readTrajectory } from "../trajectory/index.js";
import type { AttemptKey, AttemptOutcome } from "./store.js";
import type { TaskRef } from "./tasks.js";

/** Why an attempt cannot be run as planned, and is recorded as its own status rather than a failure. */
export class NoScript extends Error {
  override name = "NoScript";
}

/**
 * One attempt as an executor gets it: which attempt (its key, the arm's hash and the store's own id,
 * so a queue can name its job and check a result is this attempt's), what to run, and where its
 * files go. `instance` is the task's instance when it was read elsewhere (a worker gets it in the job
 * rather than from the coordinator's instances file).
 */
export interface PlannedAttempt {
  key: AttemptKey;
  armHash: string;
  runUid: string;
  ref: TaskRef;
  /** The arm's settings, resolved (its policy never `auto`). */
  spec: RunSpec;
  /** The attempt's folder: result.json, trajectory.jsonl, patch.diff, report.json land here. */
  out: string;
  instance?: Instance;
}

/**
 * Runs one attempt and returns its result.json, its files left in `attempt.out`; throws NoScript when
 * the arm cannot be played as planned. An experiment runs them here (`runAttemptHere`) or on a queue.
 */
export type AttemptExecutor = (attempt: PlannedAttempt, signal?: AbortSignal) => Promise<RunResult>;

/** The attempt in this process, through the one run contract. */
export const runAttemptHere: AttemptExecutor = (attempt, signal) => {
  const task = attemptTask(attempt.ref, attempt.spec, attempt.instance);
  return runKind(runnableFor(attempt.spec, task), {
    actor: attempt.spec.actor,
    out: attempt.out,
    ...(signal ? { signal } : {}),
  });
};

/** A coding task reference's task: built-in by id, else the instance from its file (or as given). */
export function codingTask(ref: TaskRef, instance?: Instance): Task {
  return ref.source === "builtin"
    ? loadTask(ref.id)
    : instance
      ? taskFromInstance(instance, ref.source)
      : instanceTask(ref.source, ref.id);
}

/** The task a reference names, checked against the arm: NoScript when the arm cannot be played on it. */
export function attemptTask(ref: TaskRef, spec: RunSpec, instance?: Instance): AnyRunTask {
  const scripted = spec.actor.kind === "loop" && actorSpec(spec.actor) === "scripted";
  switch (ref.kind) {
    case "coding": {
      const task = codingTask(ref, instance);
      if (scripted) {
        // A coding task's reference scripts are JSON tool calls: played in the code format they
        // would only fail its format check, which measures the script, not the arm.
        if (spec.action_format === "code")
          throw new NoScript(
            `no scripted policy for this arm: task "${task.id}"'s reference scripts are JSON tool calls, not programs for the code action format`,
          );
        checkScript(task, spec.tools);
      }
      return task;
    }
    case "tools": {
      const task = TOOLS_TASKS[ref.id];
      if (!task) throw new Error(`no tool-use task "${ref.id}" — see "acilab tasks list"`);
      return task;
    }
    case "cua": {
      // A task file's ref carries its path; built-in ids come from the catalogue.
      const task: CuaTask | TaskFile =
        ref.source === "builtin" ? getCuaTask(ref.id) : loadTaskFile(ref.source);
      const observe = observeFor(spec, task);
      if (!task.observe.includes(observe))
        throw new NoScript(
          `computer-use task "${ref.id}" is not set up for observe=${observe} (it takes ${task.observe.join(", ")})`,
        );
      return task;
    }
  }
}

/**
 * Under a scripted policy, a coding task needs a reference script its arm's tool set can play:
 * `script.<set>.json`, or a `script.json` calling only tools the set has. Otherwise the attempt would
 * measure the script, not the arm: it is recorded as "no scripted policy for this arm".
 */
function checkScript(task: Task, set: string): void {
  let path: string;
  try {
    path = referenceScript(task, set);
  } catch (e) {
    throw new NoScript(`no scripted policy for this arm: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (path.endsWith(`script.${set}.json`)) return;
  const offered = new Set(toolset(set).tools.map((t) => t.name));
  const called = loadScript(path).turns.flatMap((t) =>
    "calls" in t ? t.calls.map((c) => c.tool) : "say" in t ? [] : [t.tool],
  );
  const missing = [...new Set(called.filter((name) => !offered.has(name)))];
  if (missing.length > 0)
    throw new NoScript(
      `no scripted policy for this arm: task "${task.id}" has no script.${set}.json, and its script.json calls ${missing.join(", ")}, which tool set ${set} does not offer`,
    );
}

/** A failure's class from its stop reason alone (the trajectory taxonomy is a later part). */
function failureClass(result: RunResult): string | null {
  if (result.resolved) return null;
  switch (result.stop_reason) {
    case "submitted":
      return "wrong_fix";
    case "step_limit":
      return "step_cap";
    case "budget":
      return "budget";
    case "time_limit":
      return "timeout";
    case "format_errors":
      return "format_errors";
    case "stalled":
    case "repeated":
      return "stalled";
    case "policy_error":
    case "env_error":
    case "task_error":
    case "page_misbehaved":
      return "infrastructure";
    case "aborted":
      return "aborted";
  }
}

/**
 * The first turn whose actions changed a source file that is not a test: how long the agent looked
 * before it touched the code. Null when it never did, or the trajectory cannot be read.
 */
export function firstEditStep(trajectory: string): number | null {
  if (!existsSync(trajectory)) return null;
  try {
    for (const record of readTrajectory(trajectory).records)
      if (record.type === "turn" && record.actions.some((a) => a.files_changed.some((f) => !isTestPath(f))))
        return record.step;
  } catch {
    // A broken trajectory is the report's to mark; the attempt's verdict stands without this number.
  }
  return null;
}

/** result.json → the store's row; `rel` is the attempt's folder relative to DIR, `abs` the same absolute. */
export function attemptOutcome(result: RunResult, rel: string, abs: string): AttemptOutcome {
  const present = (name: string) => (existsSync(join(abs, name)) ? join(rel, name) : null);
  return {
    resolved: result.resolved,
    stop_reason: result.stop_reason,
    steps: result.steps,
    tokens_in: allInput(result.usage),
    tokens_out: result.usage.output,
    cache_read: result.usage.cache_read,
    cache_write: result.usage.cache_write,
    cost_usd: result.cost_usd,
    wall_s: result.wall_s,
    first_edit_step: firstEditStep(join(abs, "trajectory.jsonl")),
    failure_class: failureClass(result),
    trajectory: present("trajectory.jsonl"),
    patch: present("patch.diff"),
    report: present("report.json"),
  };
}
