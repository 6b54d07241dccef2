/**
 * The two kinds of work on the queue, each behind the contract its local path already has: an
 * experiment's `AttemptExecutor` and grading's `GradeFn`. The run around them — the store, the
 * resumable plan, the progress display, the reports — does not know where the work ran.
 */
import { createHash } from "node:crypto";
import { setMaxListeners } from "node:events";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { type AttemptExecutor, NoScript, type PlannedAttempt } from "../experiment/index.js";
import type { GradeFn, Instance } from "../swebench/index.js";
import { loadInstanceRows, reposDir } from "../tasks/index.js";
import type { BundlePublisher } from "./bundles.js";
import type { Coordinator } from "./coordinator.js";
import { unpackDir } from "./files.js";
import {
  type AttemptJob,
  acilabVersion,
  type GradeJob,
  type InstanceInJob,
  JOB_PROTOCOL,
} from "./protocol.js";

function hash(...parts: string[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex");
}

/** A run's namespace in a shared Redis: this machine, this folder, (for grading) this run id. */
export function runNamespace(kind: "experiment" | "grade", ...parts: string[]): string {
  return `${kind === "experiment" ? "e" : "g"}${hash(hostname(), ...parts.map((p) => resolve(p))).slice(0, 16)}`;
}

/** Waits for `work`, or rejects as soon as `signal` fires (the job stays queued for the next run). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new Error("interrupted"));
  // One listener per job in flight, thousands at once: not the leak node's default limit of 10 guards against.
  setMaxListeners(Number.POSITIVE_INFINITY, signal);
  return new Promise<T>((ok, fail) => {
    const onAbort = () => fail(new Error("interrupted"));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        ok(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        fail(e);
      },
    );
  });
}

async function inJob(instance: Instance, publisher: BundlePublisher): Promise<InstanceInJob> {
  const { repo_path, ...rest } = instance;
  return { ...rest, bundle: await publisher.publish(repo_path) };
}

function workerError(result: { why: string; worker: string }): Error {
  return new Error(result.worker === "-" ? result.why : `${result.why} (on worker ${result.worker})`);
}

export interface RemoteOptions {
  coordinator: Coordinator;
  bundles: BundlePublisher;
  /** The sandbox the jobs ask for (a worker runs only those it was started with). */
  sandbox?: string;
}

/** Experiment attempts as jobs: the attempt's files come back into its folder, the result to the store. */
export function remoteAttempts(options: RemoteOptions): AttemptExecutor {
  const { coordinator, bundles } = options;
  // Read as the experiment read them: published rows completed from their recipes, the repository
  // store from $ACILAB_REPOS — the instance travels whole, so a worker needs neither.
  const instancesOf = new Map<string, Map<string, Instance | { unavailable: string }>>();
  const instance = (file: string, id: string): Instance => {
    let byId = instancesOf.get(file);
    if (!byId) {
      const loaded = loadInstanceRows(file, { repos: reposDir() });
      byId = new Map<string, Instance | { unavailable: string }>(
        loaded.instances.map((i) => [i.instance_id, i]),
      );
      for (const u of loaded.unavailable) byId.set(u.instance_id, { unavailable: u.reason });
      instancesOf.set(file, byId);
    }
    const found = byId.get(id);
    if (!found) throw new Error(`no instance "${id}" in ${file}`);
    if ("unavailable" in found) throw new Error(`instance "${id}" cannot run: ${found.unavailable}`);
    return found;
  };
  return async (attempt: PlannedAttempt, signal?: AbortSignal) => {
    const { key, ref } = attempt;
    const spec: AttemptJob = {
      protocol: JOB_PROTOCOL,
      acilab: acilabVersion(),
      run: coordinator.options.run,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      kind: "attempt",
      attempt: {
        arm: key.arm,
        arm_version: key.arm_version,
        arm_hash: attempt.armHash,
        task_kind: key.task_kind,
        task: key.task,
        repeat: key.repeat,
      },
      spec: attempt.spec,
      task:
        ref.source === "builtin"
          ? { source: "builtin", id: ref.id }
          : {
              source: "instance",
              instance: await inJob(instance(ref.source, ref.id), bundles),
              file: ref.source,
            },
    };
    const id = coordinator.jobId(
      `a${hash(attempt.runUid, attempt.armHash, key.arm, String(key.arm_version), key.task_kind, key.task, String(key.repeat)).slice(0, 24)}`,
    );
    const result = await untilAborted(coordinator.submit(id, spec), signal);
    if (result.kind !== "attempt") throw new Error(`job ${id} came back as a ${result.kind} result`);
    if (result.status === "done") {
      unpackDir(attempt.out, result.files);
      return result.result;
    }
    if (result.status === "no_script") throw new NoScript(result.why);
    throw workerError(result);
  };
}

/** Grading instances as jobs: the graded report, log and script come back to the run's folder. */
export function remoteGrader(options: RemoteOptions): GradeFn {
  const { coordinator, bundles } = options;
  return async (instance, prediction, gradeOptions) => {
    const rules = gradeOptions.rules ?? "hardened";
    const sandbox = gradeOptions.backend ?? options.sandbox;
    const spec: GradeJob = {
      protocol: JOB_PROTOCOL,
      acilab: acilabVersion(),
      run: coordinator.options.run,
      ...(sandbox ? { sandbox } : {}),
      kind: "grade",
      instance: await inJob(instance, bundles),
      prediction: {
        instance_id: prediction.instance_id,
        model_name_or_path: prediction.model_name_or_path,
        model_patch: prediction.model_patch,
      },
      rules,
      ...(gradeOptions.timeoutMs !== undefined ? { timeout_ms: gradeOptions.timeoutMs } : {}),
    };
    const id = coordinator.jobId(
      `g${hash(instance.instance_id, prediction.model_name_or_path, prediction.model_patch ?? "", rules, String(gradeOptions.timeoutMs ?? "")).slice(0, 24)}`,
    );
    const result = await untilAborted(coordinator.submit(id, spec), gradeOptions.signal);
    if (result.kind !== "grade") throw new Error(`job ${id} came back as a ${result.kind} result`);
    if (result.status === "done") return result.graded;
    throw workerError(result);
  };
}
