/**
 * `runExperiment`: arms × tasks × repeats through the one run contract, resumable. The store is the
 * truth: the plan is inserted once (missing attempts only), attempts a killed run left `running` go
 * back to pending, and each attempt is marked running before and finished after, one transaction each.
 */
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { resolveAutoPolicy } from "../policies/index.js";
import { forEachLimited } from "../pool/index.js";
import type { RunResult } from "../run/index.js";
import { type AttemptExecutor, attemptOutcome, NoScript, runAttemptHere } from "./attempt.js";
import type { LoadedExperiment } from "./load.js";
import { type EvidenceEvent, gatherSelection } from "./selection-evidence.js";
import { type ArmVersion, type AttemptKey, type AttemptRow, AttemptStore } from "./store.js";
import { HEARTBEAT_MS } from "./store-holder.js";

export interface RunExperimentOptions {
  /** The experiment's folder: experiment.db and attempts/. */
  dir: string;
  /** Attempts at once (default: the file's `workers`). */
  workers?: number;
  /**
   * Where each attempt runs: here (the default, `runAttemptHere`) or on a queue's workers
   * (src/scale). Either way it leaves the attempt's files in its folder and returns its result.json.
   */
  execute?: AttemptExecutor;
  /** Arms whose definition changed get a new version instead of a refusal. */
  newArmVersion?: boolean;
  /** Stops starting attempts; the running ones are aborted and go back to pending. */
  signal?: AbortSignal;
  /** Told once the plan is in the store, before any attempt starts. */
  onStart?: (start: RunStart) => void;
  /** Told as each attempt starts. */
  onAttemptStart?: (row: AttemptRow) => void;
  /** Told of every attempt this run finishes (done, no_script or error). */
  onAttempt?: (event: AttemptEvent) => void;
  /** Told of every (arm, task) group whose selection evidence this run gathers (experiments with samples). */
  onEvidence?: (event: EvidenceEvent) => void;
}

export interface RunStart {
  total: number;
  /** Attempts this run will start (pending ones, including those requeued). */
  toRun: number;
  requeued: number;
  tookOver: string | undefined;
  autoPolicy: string;
  /** Attempts earlier runs finished, which this run keeps. */
  finished: AttemptRow[];
}

export interface AttemptEvent {
  /** Attempts finished so far, this run's and earlier runs', and the plan's size. */
  finished: number;
  total: number;
  row: AttemptRow;
  result?: RunResult;
}

export interface ExperimentRun {
  arms: ArmVersion[];
  /** Every attempt of the arms' current versions, in plan order, as the store has them now. */
  rows: AttemptRow[];
  /** The policy every arm that said `auto` (or nothing) ran with. */
  autoPolicy: string;
  /** Attempts a killed run had left running, put back to pending at the start. */
  requeued: number;
  /** Set when the database was taken over from a dead or stale holder. */
  tookOver: string | undefined;
  interrupted: boolean;
  /** Groups whose selection evidence this run gathered, and how many of them failed. */
  evidence: { groups: number; failed: number };
}

/** Where an attempt's files go, relative to DIR. Version 1 keeps the plain arm name. */
export function attemptDir(row: AttemptKey): string {
  const arm = row.arm_version === 1 ? row.arm : `${row.arm}@${row.arm_version}`;
  return join("attempts", arm, safeSegment(row.task), String(row.repeat));
}

/**
 * A task id from an instances file is not ours: it becomes one safe path segment, never a path, and
 * two ids never share one. A plain id is itself; any other is its readable part plus a hash of the
 * whole id (a plain id has no "~", so the two forms cannot meet either).
 */
function safeSegment(id: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) return id;
  const readable = id
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(0, 80);
  return `${readable}~${createHash("sha256").update(id).digest("hex").slice(0, 12)}`;
}

export async function runExperiment(
  loaded: LoadedExperiment,
  options: RunExperimentOptions,
): Promise<ExperimentRun> {
  const store = await AttemptStore.open(options.dir, loaded.experiment.name);
  const beat = setInterval(() => store.heartbeat(), HEARTBEAT_MS);
  beat.unref();
  try {
    const arms = store.syncArms(loaded.arms, options.newArmVersion === true);
    store.recordBaseline(loaded.experiment.baseline);
    store.recordSampling(loaded.experiment.sampling);
    const keys: AttemptKey[] = arms.flatMap((arm) =>
      loaded.tasks.flatMap((task) =>
        Array.from({ length: loaded.experiment.repeats }, (_, i) => ({
          arm: arm.name,
          arm_version: arm.version,
          task_kind: task.kind,
          task: task.id,
          repeat: i + 1,
        })),
      ),
    );
    store.plan(keys);
    const requeued = store.requeueRunning();
    const autoPolicy = resolveAutoPolicy().spec;
    const all = store.attempts(arms);
    const pending = all.filter((r) => r.status === "pending");
    let finished = all.length - pending.length;
    options.onStart?.({
      total: all.length,
      toRun: pending.length,
      requeued,
      tookOver: store.tookOver,
      autoPolicy,
      finished: all.filter((r) => r.status !== "pending"),
    });
    const specOf = new Map(loaded.arms.map((a) => [a.name, a.spec]));
    const hashOf = new Map(arms.map((a) => [`${a.name}@${a.version}`, a.hash]));
    const execute = options.execute ?? runAttemptHere;
    const taskOf = new Map(loaded.tasks.map((t) => [`${t.kind}:${t.id}`, t]));

    const runOne = async (row: AttemptRow) => {
      const rel = attemptDir(row);
      const abs = join(options.dir, rel);
      store.markRunning(row.id);
      options.onAttemptStart?.(row);
      // A killed run's half-written files must not mix with this run's.
      rmSync(abs, { recursive: true, force: true });
      let result: RunResult | undefined;
      try {
        const ref = taskOf.get(`${row.task_kind}:${row.task}`);
        if (!ref) throw new Error(`task "${row.task}" is not in the experiment file any more`);
        const spec = specOf.get(row.arm);
        if (!spec) throw new Error(`arm "${row.arm}" is not in the experiment file any more`);
        result = await execute(
          {
            key: row,
            armHash: hashOf.get(`${row.arm}@${row.arm_version}`) ?? "",
            runUid: store.uid,
            ref,
            spec,
            out: abs,
          },
          options.signal,
        );
      } catch (err) {
        if (options.signal?.aborted) return store.markPending(row.id);
        const why = err instanceof Error ? err.message : String(err);
        store.markUnrun(row.id, err instanceof NoScript ? "no_script" : "error", why);
      }
      if (result) {
        // Whatever was in flight at an interrupt goes back to pending, even if it got to a verdict:
        // a run cut short (a command killed mid-way) must never be recorded as the arm's result.
        if (result.stop_reason === "aborted" || options.signal?.aborted) return store.markPending(row.id);
        store.markDone(row.id, attemptOutcome(result, rel, abs));
      }
      store.heartbeat();
      finished += 1;
      options.onAttempt?.({
        finished,
        total: all.length,
        row: store.attempt(row.id) ?? row,
        ...(result ? { result } : {}),
      });
    };
    const workers = options.workers ?? loaded.experiment.workers;
    await forEachLimited(pending, { workers, ...(options.signal ? { signal: options.signal } : {}) }, runOne);
    const evidence = { groups: 0, failed: 0 };
    const sampling = loaded.experiment.sampling;
    // Evidence is gathered where the store is (the coordinator of a queue run too): it grades on this
    // machine, after every sample of a group is in.
    if (sampling && !options.signal?.aborted)
      evidence.groups = await gatherSelection(store, store.attempts(arms), options.dir, sampling, {
        taskOf: (row) => taskOf.get(`${row.task_kind}:${row.task}`),
        specOf: (arm) => specOf.get(arm),
        workers: Math.min(workers, loaded.experiment.workers),
        ...(options.signal ? { signal: options.signal } : {}),
        onGroup: (e) => {
          if (e.error !== undefined) evidence.failed += 1;
          store.heartbeat();
          options.onEvidence?.(e);
        },
      });
    return {
      arms,
      rows: store.attempts(arms),
      autoPolicy,
      requeued,
      tookOver: store.tookOver,
      interrupted: options.signal?.aborted === true,
      evidence,
    };
  } finally {
    clearInterval(beat);
    store.close();
  }
}
