/**
 * The composition root: one way to run a task of any kind. Everything a run shares — its out folder,
 * the policy (resolved once, here), the ledger and its prices, the trajectory file, the wall clock and
 * result.json — is made here exactly once; a kind (./coding.ts, ./tools.ts, ./cua.ts) supplies only
 * how its task starts, loops and grades.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FREE_POLICIES, Ledger } from "../ledger/index.js";
import type { StopReason } from "../loop/index.js";
import { isAgentless, makePolicy, type Policy, resolveAutoPolicy } from "../policies/index.js";
import { type TrajectorySink, TrajectoryWriter } from "../trajectory/index.js";
import { type GradeCore, type ResultCore, type ResultExtras, resultCore, type TaskKind } from "./result.js";

/** What the root hands a kind for one run. */
export interface SharedRun {
  policy: Policy;
  ledger: Ledger;
  trajectory: TrajectorySink;
  /** The run's folder (trajectory.jsonl and result.json are the root's; the rest is the kind's). */
  out: string | undefined;
  runId: string;
  signal?: AbortSignal;
}

/** What a kind gives back: how the loop ended, the grade, and the kind's own result fields. */
export interface KindEnd<R extends AnyResult> {
  loop: { stopReason: StopReason; detail: string; steps: number };
  grade: R["grade"];
  extras: ResultExtras<R>;
}

export type AnyResult = ResultCore<TaskKind, GradeCore>;

/** One task of one kind, ready to run: the contract every kind implements. */
export interface RunnableTask<R extends AnyResult> {
  readonly kind: R["kind"];
  readonly id: string;
  /**
   * The task's own scripted policy: `file` undefined is the built-in reference (plain
   * `--policy scripted`), else a script file in the kind's format (`scripted:FILE`).
   */
  scripted(file: string | undefined): Policy;
  /** Start the task, run the loop, grade it. Cleans up after itself, however it ends. */
  execute(run: SharedRun): Promise<KindEnd<R>>;
}

export interface RunOptions {
  /** `auto`, `scripted`, `scripted:FILE`, `replay:FILE` or a model spec (POLICY_SPEC_HELP). */
  policySpec: string;
  /** A ready policy instead of the spec (tests script their own misbehaving agents). */
  policy?: Policy;
  /** Where trajectory.jsonl, result.json and the kind's files go; nothing is written without it. */
  out?: string;
  signal?: AbortSignal;
}

/** The one place a policy spec becomes a policy, for every kind. */
export function resolvePolicy(spec: string, task: Pick<RunnableTask<AnyResult>, "scripted">): Policy {
  const resolved = spec === "auto" ? resolveAutoPolicy().spec : spec;
  if (resolved === "scripted") return task.scripted(undefined);
  if (resolved.startsWith("scripted:")) return task.scripted(resolved.slice("scripted:".length));
  return makePolicy(resolved);
}

const NO_TRAJECTORY: TrajectorySink = { write: () => undefined };

/** Run any task end to end and return (and write) its result.json. */
export async function runAnyTask<R extends AnyResult>(
  task: RunnableTask<R>,
  options: RunOptions,
): Promise<R> {
  const started = performance.now();
  const policy = options.policy ?? resolvePolicy(options.policySpec, task);
  if (isAgentless(policy) && task.kind !== "coding")
    throw new Error(
      `policy "${policy.spec}" runs the Agentless workflow, which edits a repository: task "${task.id}" is a ${task.kind === "cua" ? "computer-use" : "tool-use"} task — use ${policy.inner.spec} for it, or an agentless policy on a coding task`,
    );
  const { out } = options;
  if (out) mkdirSync(out, { recursive: true });
  const file = out ? new TrajectoryWriter(join(out, "trajectory.jsonl")) : undefined;
  const ledger = new Ledger({ prices: FREE_POLICIES });
  let end: KindEnd<R>;
  try {
    end = await task.execute({
      policy,
      ledger,
      trajectory: file ?? NO_TRAJECTORY,
      out,
      runId: `${task.id}-${Date.now().toString(36)}`,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    file?.close();
  }
  const core = resultCore({
    task: task.id,
    kind: task.kind,
    policy: policy.spec,
    loop: end.loop,
    ledger,
    wallMs: performance.now() - started,
    grade: end.grade,
  });
  const result = { ...core, ...end.extras } as R;
  if (out) writeFileSync(join(out, "result.json"), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}
