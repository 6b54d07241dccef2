/**
 * The composition root: one way to run a task of any kind. Everything a run shares — its out folder,
 * the actor (made here, once), the ledger and its prices, the trajectory file, the wall clock, the
 * warnings and result.json — is made here exactly once; a kind (./coding.ts, ./tools.ts, ./cua.ts)
 * supplies only how its task starts, loops and grades. `runAnyTask` (./any-task.ts) picks the kind
 * from a RunSpec; `runKind` runs a kind already built.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentlessActor } from "../agentless/index.js";
import { FREE_POLICIES, Ledger } from "../ledger/index.js";
import type { StopReason } from "../loop/index.js";
import { makePolicy, type Policy, parsePolicySpec } from "../policies/index.js";
import { type TrajectorySink, TrajectoryWriter } from "../trajectory/index.js";
import { type GradeCore, type ResultCore, type ResultExtras, resultCore, type TaskKind } from "./result.js";
import type { Actor } from "./spec/index.js";

/** The actor, made: an agent loop's policy, or the Agentless workflow with the model it drives. */
export type ResolvedActor =
  | { kind: "loop"; policy: Policy }
  | { kind: "agentless"; workflow: AgentlessActor };

/** What the root hands a kind for one run. */
export interface SharedRun {
  actor: ResolvedActor;
  ledger: Ledger;
  trajectory: TrajectorySink;
  /** The run's folder (trajectory.jsonl and result.json are the root's; the rest is the kind's). */
  out: string | undefined;
  runId: string;
  signal?: AbortSignal;
  /** Something a person should know about this run: kept in result.json's `warnings`. */
  warn(text: string): void;
  /** Progress a person may watch (an environment being built); nothing is written when absent. */
  log(line: string): void;
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
  /** Whether a workflow (Agentless) may act instead of a loop: only where it has a repository to edit. */
  readonly takesWorkflow: boolean;
  /**
   * The task's own scripted policy: `file` undefined is the built-in reference (plain
   * `--policy scripted`), else a script file in the kind's format (`scripted:FILE`).
   */
  scripted(file: string | undefined): Policy;
  /** Start the task, run the loop, grade it. Cleans up after itself, however it ends. */
  execute(run: SharedRun): Promise<KindEnd<R>>;
}

export interface KindRunOptions {
  /** Who acts, as the RunSpec names it (`auto` already resolved); or one of the two below. */
  actor?: Actor;
  /** A ready agent instead of the actor's policy (tests script their own misbehaving agents). */
  policy?: Policy;
  /** A ready workflow instead of the actor's (tests point it at a model server of their own). */
  workflow?: AgentlessActor;
  /** Where trajectory.jsonl, result.json and the kind's files go; nothing is written without it. */
  out?: string;
  signal?: AbortSignal;
  /** Where progress lines go (the CLI prints them); dropped when absent. */
  log?: (line: string) => void;
}

/** The one place an actor is made, for every kind: the kind's own script for `scripted`. */
export function makeActor(actor: Actor, task: ActorTarget): ResolvedActor {
  if (actor.kind === "agentless") {
    refuseWorkflow(task, actor.spec, actor.model);
    return {
      kind: "agentless",
      workflow: {
        spec: actor.spec,
        model: makePolicy(actor.model),
        settings: { k: actor.k, temperature: actor.temperature },
      },
    };
  }
  const parsed = parsePolicySpec(actor.policy);
  if (parsed.kind === "scripted") return { kind: "loop", policy: task.scripted(parsed.file) };
  return { kind: "loop", policy: makePolicy(parsed) };
}

type ActorTarget = Pick<RunnableTask<AnyResult>, "id" | "kind" | "scripted" | "takesWorkflow">;

function refuseWorkflow(task: ActorTarget, spec: string, model: string): void {
  if (!task.takesWorkflow)
    throw new Error(
      `policy "${spec}" runs the Agentless workflow, which edits a repository: task "${task.id}" is a ${task.kind === "cua" ? "computer-use" : "tool-use"} task — use ${model} for it, or an agentless policy on a coding task`,
    );
}

function chooseActor(task: ActorTarget, options: KindRunOptions): ResolvedActor {
  if (options.policy) return { kind: "loop", policy: options.policy };
  if (options.workflow) {
    refuseWorkflow(task, options.workflow.spec, options.workflow.model.spec);
    return { kind: "agentless", workflow: options.workflow };
  }
  if (!options.actor) throw new Error(`task "${task.id}": no actor given (an actor, a policy or a workflow)`);
  return makeActor(options.actor, task);
}

/** The policy of a kind that only runs a loop (the root refused a workflow for it already). */
export function loopPolicy(run: SharedRun): Policy {
  if (run.actor.kind !== "loop")
    throw new Error(`the ${run.actor.workflow.spec} workflow reached a kind that runs only a loop`);
  return run.actor.policy;
}

/** The spec result.json names: the policy's own (a script's path included), or the workflow's. */
function actorLabel(actor: ResolvedActor): string {
  return actor.kind === "loop" ? actor.policy.spec : actor.workflow.spec;
}

const NO_TRAJECTORY: TrajectorySink = { write: () => undefined };

/** Run a kind end to end and return (and write) its result.json. */
export async function runKind<R extends AnyResult>(
  task: RunnableTask<R>,
  options: KindRunOptions,
): Promise<R> {
  const started = performance.now();
  const actor = chooseActor(task, options);
  const { out } = options;
  if (out) mkdirSync(out, { recursive: true });
  const file = out ? new TrajectoryWriter(join(out, "trajectory.jsonl")) : undefined;
  const ledger = new Ledger({ prices: FREE_POLICIES });
  const warnings: string[] = [];
  let end: KindEnd<R>;
  try {
    end = await task.execute({
      actor,
      ledger,
      trajectory: file ?? NO_TRAJECTORY,
      out,
      runId: `${task.id}-${Date.now().toString(36)}`,
      ...(options.signal ? { signal: options.signal } : {}),
      warn: (text) => {
        if (!warnings.includes(text)) warnings.push(text);
      },
      log: options.log ?? (() => undefined),
    });
  } finally {
    file?.close();
  }
  const core = resultCore({
    task: task.id,
    kind: task.kind,
    policy: actorLabel(actor),
    loop: end.loop,
    ledger,
    wallMs: performance.now() - started,
    grade: end.grade,
    warnings,
  });
  const result = { ...core, ...end.extras } as R;
  if (out) writeFileSync(join(out, "result.json"), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}
