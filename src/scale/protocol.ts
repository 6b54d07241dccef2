/**
 * What travels through the queue: one job contract for both kinds of work (an experiment attempt and
 * a grading instance), and one result contract. A worker trusts nothing in a job: it is parsed here
 * (zod) before anything reads it, and a job from another acilab version or protocol is refused.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { RUN_SPEC_SCHEMA, type RunResult, type RunSpec } from "../run/index.js";
import type { GradedInstance, Instance, Prediction } from "../swebench/index.js";
import { packageRoot } from "../tasks/index.js";

/** Bumped whenever a job's or a result's shape changes; coordinator and worker must agree exactly. */
export const JOB_PROTOCOL = 2;

let version: string | undefined;
/** This acilab's version (package.json): workers run only jobs of their own version. */
export function acilabVersion(): string {
  version ??= (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string })
    .version;
  return version;
}

/** A repository a job needs, as a content-addressed git bundle the worker fetches and verifies. */
export interface BundleRef {
  sha256: string;
  bytes: number;
  /** "redis": under the bundle key in the same Redis; else a path every worker sees (a shared mount). */
  at: "redis" | { path: string };
}

/** An instance as it travels: its repository replaced by the bundle that holds it. */
export type InstanceInJob = Omit<Instance, "repo_path"> & { repo: string; bundle: BundleRef };

interface JobHead {
  protocol: number;
  acilab: string;
  /** The run the job belongs to (its namespace in a shared Redis). */
  run: string;
  /** Sandbox backend the job asks for, if any; the worker runs only the backends it was started with. */
  sandbox?: string;
}

export interface AttemptJob extends JobHead {
  kind: "attempt";
  /** What identifies the attempt (its job id is made from the same fields, so a job is one attempt). */
  attempt: {
    arm: string;
    arm_version: number;
    arm_hash: string;
    task_kind: string;
    task: string;
    repeat: number;
  };
  /** The arm's whole RunSpec as the coordinator resolved it (defaults and `auto` included). */
  spec: RunSpec;
  /** Built-in tasks go by id (every worker has them); an instance travels whole. */
  task: { source: "builtin"; id: string } | { source: "instance"; instance: InstanceInJob; file: string };
}

export interface GradeJob extends JobHead {
  kind: "grade";
  instance: InstanceInJob;
  prediction: Prediction;
  rules: "hardened" | "swebench";
  timeout_ms?: number;
}

export type JobSpec = AttemptJob | GradeJob;

/** A file an attempt left, gzipped and base64'd (a job result is JSON). */
export interface PackedFile {
  path: string;
  gz: string;
}

/** What a worker hands back; "refused" never comes back as a result (the job goes back instead). */
export type JobResult =
  | { kind: "attempt"; status: "done"; result: RunResult; files: PackedFile[]; worker: string }
  | { kind: "attempt"; status: "no_script" | "error"; why: string; worker: string }
  | { kind: "grade"; status: "done"; graded: GradedInstance; worker: string }
  | { kind: "grade"; status: "error"; why: string; worker: string };

const bundleRef = z
  .object({
    sha256: z.string().regex(/^[0-9a-f]{64}$/, "a bundle's sha256 is 64 hex digits"),
    bytes: z.number().int().nonnegative(),
    at: z.union([z.literal("redis"), z.object({ path: z.string().startsWith("/") }).strict()]),
  })
  .strict();

const strings = z.array(z.string());
const instanceInJob = z
  .object({
    instance_id: z.string().min(1),
    repo: z.string(),
    base_commit: z.string().regex(/^[0-9a-f]{7,64}$/, "base_commit is a commit id"),
    patch: z.string(),
    test_patch: z.string(),
    problem_statement: z.string(),
    hints_text: z.string(),
    created_at: z.string(),
    version: z.string(),
    environment_setup_commit: z.string(),
    FAIL_TO_PASS: strings,
    PASS_TO_PASS: strings,
    test_command: z.array(z.string()).min(1),
    log_parser: z.string(),
    language: z.enum(["python", "typescript", "javascript", "go", "rust"]),
    setup_commands: strings.optional(),
    acilab_env: z.record(z.string(), z.unknown()).optional(),
    impossible: z.boolean().optional(),
    bundle: bundleRef,
  })
  .passthrough();

const head = {
  protocol: z.number().int(),
  acilab: z.string(),
  run: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "a run id is letters, digits, - and _"),
  sandbox: z.string().optional(),
};

const attemptJob = z
  .object({
    ...head,
    kind: z.literal("attempt"),
    attempt: z
      .object({
        arm: z.string(),
        arm_version: z.number().int().min(1),
        arm_hash: z.string(),
        task_kind: z.enum(["coding", "tools", "cua"]),
        task: z.string().min(1),
        repeat: z.number().int().min(1),
      })
      .strict(),
    spec: RUN_SPEC_SCHEMA,
    task: z.union([
      z.object({ source: z.literal("builtin"), id: z.string().min(1) }).strict(),
      z.object({ source: z.literal("instance"), instance: instanceInJob, file: z.string() }).strict(),
    ]),
  })
  .strict();

const gradeJob = z
  .object({
    ...head,
    kind: z.literal("grade"),
    instance: instanceInJob,
    prediction: z
      .object({ instance_id: z.string(), model_name_or_path: z.string(), model_patch: z.string().nullable() })
      .passthrough(),
    rules: z.enum(["hardened", "swebench"]),
    timeout_ms: z.number().positive().optional(),
  })
  .strict();

/** The head alone, read first: a job of another version is refused before its body is judged. */
export function jobHead(data: unknown): { protocol: unknown; acilab: unknown; run: unknown } {
  const d = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  return { protocol: d.protocol, acilab: d.acilab, run: d.run };
}

/** Why this worker cannot run a job of that head (version skew), or undefined when it can. */
export function skew(data: unknown): string | undefined {
  const h = jobHead(data);
  if (h.protocol === JOB_PROTOCOL && h.acilab === acilabVersion()) return undefined;
  return `the job was queued by acilab ${String(h.acilab)} (job protocol ${String(h.protocol)}); this worker is acilab ${acilabVersion()} (protocol ${JOB_PROTOCOL}) — run workers of the coordinator's version`;
}

/** A job's data, checked; throws a sentence naming the first bad field. */
export function parseJob(data: unknown): JobSpec {
  const kind = (data as { kind?: unknown } | null)?.kind;
  const schema = kind === "grade" ? gradeJob : attemptJob;
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`malformed job: ${issue?.path.join(".") || "(top)"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data as JobSpec;
}
