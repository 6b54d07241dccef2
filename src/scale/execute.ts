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
import type { BackendChoice } from "../sandbox/index.js";
import type { Instance } from "../swebench/index.js";
import { fetchBundle } from "./bundles.js";
import { packDir } from "./files.js";
import type { AttemptJob, GradeJob, InstanceInJob, JobResult, JobSpec } from "./protocol.js";

export interface WorkerContext {
  redis: Redis;
  /** `host:pid`, named in every result. */
  worker: string;
  /** The sandbox backends this worker runs, its default first (never `process` unless it was named). */
  sandboxes: readonly Exclude<BackendChoice, "auto">[];
  /** Where attempts' folders are made and removed. */
  scratch: string;
  /** The verified bundles' cache (default: acilab's cache folder). */
  bundleCache?: string;
  /** Base URLs an `openai-compatible:MODEL@URL` policy in a job may name (the worker's key goes there). */
  policyUrls?: readonly string[];
}

/** Handed back, not finished: the job goes back to the queue for another worker. */
export const ABORTED = Symbol("aborted");

/** Policies that read a file on the coordinator's machine cannot be played here. */
function fileBoundPolicy(spec: string): boolean {
  return /^(scripted|replay):./.test(spec);
}

function isBackend(b: string): b is BackendChoice {
  return b === "bwrap" || b === "runsc" || b === "process";
}

/** The base URL an `openai-compatible:MODEL@URL` spec names, if any. */
function policyUrl(spec: string): string | undefined {
  if (!spec.startsWith("openai-compatible:")) return undefined;
  const at = spec.lastIndexOf("@");
  return at > 0 ? spec.slice(at + 1) : undefined;
}

/** The backend to use for a job that asks for `wanted`, or why this worker will not. */
function backendFor(wanted: string | undefined, ctx: WorkerContext): BackendChoice | string {
  const first = ctx.sandboxes[0] as BackendChoice;
  if (wanted === undefined || wanted === "auto") return first;
  if ((ctx.sandboxes as readonly string[]).includes(wanted)) return wanted as BackendChoice;
  return `this worker runs the ${ctx.sandboxes.join(", ")} sandbox${ctx.sandboxes.length > 1 ? "es" : ""}, and the job asks for ${wanted} — start a worker with --sandbox ${wanted} to run it`;
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
  const backend = backendFor(job.fields.sandbox ?? job.sandbox, ctx);
  if (!isBackend(backend)) return unrun("error", backend);
  const url = policyUrl(job.policy);
  if (
    url !== undefined &&
    !(ctx.policyUrls ?? []).some(
      (allowed) => url === allowed || url.startsWith(`${allowed.replace(/\/$/, "")}/`),
    )
  )
    return unrun(
      "error",
      `policy ${job.policy} names a server URL; a worker sends its API key only to servers it was started with (--policy-url ${url}) — a job must not choose where this worker's key goes`,
    );
  if (fileBoundPolicy(job.policy))
    return unrun(
      "error",
      `policy ${job.policy} reads a file on the coordinator's machine, which a worker does not have — run this arm locally (without --redis)`,
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
      fields: { ...job.fields, ...(job.attempt.task_kind === "cua" ? {} : { sandbox: backend }) },
      policySpec: job.policy,
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
  const backend = backendFor(job.sandbox, ctx);
  if (!isBackend(backend)) return { kind: "grade", status: "error", why: backend, worker: ctx.worker };
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
