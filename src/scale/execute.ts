/**
 * A worker's side of a job: the job (already checked) → the same functions a local run calls
 * (`runAttemptHere`, `gradeInstance`) in this worker's own sandboxes → the result. Everything a job
 * names runs in the sandbox; on the host a job only chooses among what the worker allows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { gradeInstance } from "../eval/index.js";
import { NoScript, type PlannedAttempt, runAttemptHere } from "../experiment/index.js";
import { parsePolicySpec } from "../policies/index.js";
import { actorSpec, type RunSpec } from "../run/index.js";
import type { BackendName } from "../sandbox/index.js";
import type { Instance } from "../swebench/index.js";
import { fetchBundle } from "./bundles.js";
import { packDir } from "./files.js";
import type { AttemptJob, GradeJob, InstanceInJob, JobResult, JobSpec } from "./protocol.js";

export interface WorkerContext {
  redis: Redis;
  /** `host:pid`, named in every result. */
  worker: string;
  /** The sandbox backends this worker runs, its default first (never `process` unless it was named). */
  sandboxes: readonly BackendName[];
  /** Where attempts' folders are made and removed. */
  scratch: string;
  /** The verified bundles' cache (default: acilab's cache folder). */
  bundleCache?: string;
  /** Base URLs an `openai-compatible:MODEL@URL` policy in a job may name (the worker's key goes there). */
  policyUrls?: readonly string[];
}

/** Handed back, not finished: the job goes back to the queue for another worker. */
export const ABORTED = Symbol("aborted");

/** What in a spec reads a file on the coordinator's machine, which a worker does not have; undefined when nothing does. */
function fileBound(spec: RunSpec): string | undefined {
  if (spec.harness.settings !== null) return `the settings file ${spec.harness.settings}`;
  if (spec.actor.kind !== "loop") return undefined;
  const policy = parsePolicySpec(spec.actor.policy);
  if (policy.kind === "replay" || (policy.kind === "scripted" && policy.file !== undefined))
    return `policy ${policy.text}`;
  return undefined;
}

/** The base URL the spec's model is reached at, if the spec names one (`openai-compatible:MODEL@URL`). */
function policyUrl(spec: RunSpec): string | undefined {
  const model = parsePolicySpec(spec.actor.kind === "loop" ? spec.actor.policy : spec.actor.model);
  return model.kind === "openai-compatible" ? model.baseURL : undefined;
}

/** The backend to use for a job that asks for `wanted`, or why this worker will not. */
function backendFor(
  wanted: string | undefined,
  ctx: WorkerContext,
): { backend: BackendName } | { refused: string } {
  const first = ctx.sandboxes[0];
  if (first === undefined) return { refused: "this worker was started with no sandbox backend" };
  if (wanted === undefined || wanted === "auto") return { backend: first };
  const named = ctx.sandboxes.find((b) => b === wanted);
  if (named) return { backend: named };
  return {
    refused: `this worker runs the ${ctx.sandboxes.join(", ")} sandbox${ctx.sandboxes.length > 1 ? "es" : ""}, and the job asks for ${wanted} — start a worker with --sandbox ${wanted} to run it`,
  };
}

async function localInstance(job: InstanceInJob, ctx: WorkerContext): Promise<Instance> {
  const { bundle, ...rest } = job;
  const repo_path = await fetchBundle(ctx.redis, bundle, ctx.bundleCache);
  return { ...(rest as Omit<Instance, "repo_path">), repo_path };
}

async function runAttempt(
  job: AttemptJob,
  ctx: WorkerContext,
  signal: AbortSignal,
): Promise<JobResult | typeof ABORTED> {
  const unrun = (status: "no_script" | "error", why: string): JobResult => ({
    kind: "attempt",
    status,
    why,
    worker: ctx.worker,
  });
  const chosen = backendFor(job.spec.sandbox === "auto" ? job.sandbox : job.spec.sandbox, ctx);
  if ("refused" in chosen) return unrun("error", chosen.refused);
  const url = policyUrl(job.spec);
  if (
    url !== undefined &&
    !(ctx.policyUrls ?? []).some(
      (allowed) => url === allowed || url.startsWith(`${allowed.replace(/\/$/, "")}/`),
    )
  )
    return unrun(
      "error",
      `policy ${actorSpec(job.spec.actor)} names a server URL; a worker sends its API key only to servers it was started with (--policy-url ${url}) — a job must not choose where this worker's key goes`,
    );
  const bound = fileBound(job.spec);
  if (bound)
    return unrun(
      "error",
      `${bound} is a file on the coordinator's machine, which a worker does not have — run this arm locally (without --redis)`,
    );
  const out = mkdtempSync(join(ctx.scratch, "attempt-"));
  try {
    const instance = job.task.source === "instance" ? await localInstance(job.task.instance, ctx) : undefined;
    const planned: PlannedAttempt = {
      key: {
        arm: job.attempt.arm,
        arm_version: job.attempt.arm_version,
        task_kind: job.attempt.task_kind,
        task: job.attempt.task,
        repeat: job.attempt.repeat,
      },
      armHash: job.attempt.arm_hash,
      runUid: job.run,
      ref: {
        kind: job.attempt.task_kind as PlannedAttempt["ref"]["kind"],
        id: job.attempt.task,
        source: job.task.source === "builtin" ? "builtin" : job.task.file,
      },
      // The worker's own backend for "auto": what the job's commands really ran in.
      spec: job.attempt.task_kind === "cua" ? job.spec : { ...job.spec, sandbox: chosen.backend },
      out,
      ...(instance ? { instance } : {}),
    };
    const result = await runAttemptHere(planned, signal);
    if (signal.aborted || result.stop_reason === "aborted") return ABORTED;
    return { kind: "attempt", status: "done", result, files: packDir(out), worker: ctx.worker };
  } catch (err) {
    if (signal.aborted) return ABORTED;
    return unrun(
      err instanceof NoScript ? "no_script" : "error",
      err instanceof Error ? err.message : String(err),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function runGrade(
  job: GradeJob,
  ctx: WorkerContext,
  signal: AbortSignal,
): Promise<JobResult | typeof ABORTED> {
  const chosen = backendFor(job.sandbox, ctx);
  if ("refused" in chosen) return { kind: "grade", status: "error", why: chosen.refused, worker: ctx.worker };
  const { backend } = chosen;
  try {
    const instance = await localInstance(job.instance, ctx);
    const graded = await gradeInstance(instance, job.prediction, {
      backend,
      rules: job.rules,
      ...(job.timeout_ms !== undefined ? { timeoutMs: job.timeout_ms } : {}),
      signal,
    });
    if (signal.aborted) return ABORTED;
    return { kind: "grade", status: "done", graded, worker: ctx.worker };
  } catch (err) {
    if (signal.aborted) return ABORTED;
    return {
      kind: "grade",
      status: "error",
      why: err instanceof Error ? err.message : String(err),
      worker: ctx.worker,
    };
  }
}

export function executeJob(
  job: JobSpec,
  ctx: WorkerContext,
  signal: AbortSignal,
): Promise<JobResult | typeof ABORTED> {
  return job.kind === "attempt" ? runAttempt(job, ctx, signal) : runGrade(job, ctx, signal);
}
