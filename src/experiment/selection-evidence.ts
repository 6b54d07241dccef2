/**
 * After sampling: the evidence the experiment's selector chains read, gathered once per (arm, task)
 * group and kept in the store, so a report chooses without running anything and a killed run gathers
 * only what is missing. Normalised patches are computed on the host from the patch text and the base
 * commit's files (nothing a candidate wrote runs); test evidence runs through the grader's sandbox.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { costOf, priceFor } from "../ledger/index.js";
import { makePolicy, type Policy } from "../policies/index.js";
import { forEachLimited } from "../pool/index.js";
import type { RunSpec } from "../run/index.js";
import {
  type CandidatePatch,
  codePart,
  evidenceNeeded,
  gatherTestEvidence,
  normalisePatch,
  parseScore,
  type TaskEvidence,
  VERIFIER_MAX_OUTPUT_TOKENS,
  VERIFIER_SYSTEM,
  verifierPrompt,
} from "../select/index.js";
import type { Instance } from "../swebench/index.js";
import { taskInstance } from "../tasks/index.js";
import { git } from "../workspace/index.js";
import { codingTask } from "./attempt.js";
import type { Sampling } from "./sampling-spec.js";
import {
  type AttemptRow,
  type AttemptStore,
  type CandidateEvidence,
  type GroupEvidenceRecord,
  type StoredGroup,
  sampleRuns,
} from "./store.js";
import type { TaskRef } from "./tasks.js";

/** A patch larger than this is not parsed for the vote: its raw text is its key. */
const MAX_PATCH_BYTES = 4 * 1024 * 1024;

export interface SampleGroup {
  arm: string;
  arm_version: number;
  task_kind: string;
  task: string;
  /** The group's attempts in sample (repeat) order. */
  rows: AttemptRow[];
}

/** What a group's gathering yields: the store's record of it. */
export type GroupEvidence = GroupEvidenceRecord;

export interface EvidenceEvent {
  group: SampleGroup;
  /** Set when gathering failed; the group's chains then say the evidence is missing. */
  error?: string;
  evidence?: GroupEvidence;
  finished: number;
  total: number;
}

const groupKey = (g: { arm: string; arm_version: number; task_kind: string; task: string }) =>
  `${g.arm}@${g.arm_version}\n${g.task_kind}:${g.task}`;

/**
 * The sampling groups of `rows`: every (arm version, task), its attempts 1..samples in sample order
 * (a store that once asked for more samples keeps the rest, which are not this run's candidates).
 */
export function sampleGroups(rows: readonly AttemptRow[], samples: number): SampleGroup[] {
  const groups = new Map<string, SampleGroup>();
  for (const r of rows) {
    if (r.repeat > samples) continue;
    const key = groupKey(r);
    let g = groups.get(key);
    if (!g) {
      g = { arm: r.arm, arm_version: r.arm_version, task_kind: r.task_kind, task: r.task, rows: [] };
      groups.set(key, g);
    }
    g.rows.push(r);
  }
  for (const g of groups.values()) g.rows.sort((a, b) => a.repeat - b.repeat);
  return [...groups.values()];
}

/** Every sample of the group ran to a verdict: only then is there a full set to choose among. */
export const complete = (g: SampleGroup, samples: number) =>
  g.rows.length === samples && g.rows.every((r) => r.status === "done");

/**
 * The groups whose evidence must be gathered: complete coding groups the store has no evidence for,
 * evidence of other attempts (a sample run again), or evidence lacking a kind a chain now needs.
 */
export function groupsToGather(
  rows: readonly AttemptRow[],
  sampling: Sampling,
  stored: readonly (StoredGroup & Omit<SampleGroup, "rows">)[],
): SampleGroup[] {
  const needs = evidenceNeeded(sampling.chains);
  if (!needs.tests && !needs.normalised && !needs.scores) return [];
  const have = new Map(stored.map((g) => [groupKey(g), g]));
  return sampleGroups(rows, sampling.samples).filter((g) => {
    if (g.task_kind !== "coding" || !complete(g, sampling.samples)) return false;
    const kept = have.get(groupKey(g));
    if (!kept) return true;
    if (JSON.stringify(kept.attempt_ids) !== JSON.stringify(sampleRuns(g.rows))) return true;
    return (
      (needs.tests && !kept.tests) ||
      (needs.normalised && !kept.normalised) ||
      (needs.scores && kept.verifier !== sampling.verifier)
    );
  });
}

/** The sample's patch; a done coding attempt always wrote one, so a missing file is damage, said as such. */
function readPatch(dir: string, row: AttemptRow): string {
  if (!row.patch) return "";
  try {
    return readFileSync(join(dir, row.patch), "utf8");
  } catch (e) {
    throw new Error(
      `sample ${row.repeat}'s ${row.patch} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}) — restore the attempt's folder, or delete DIR/experiment.db's row for attempt ${row.id} so the next run samples it again`,
    );
  }
}

/** A file at the base commit, read by the host's git from the task's own repository. */
function baseReader(instance: Instance) {
  return async (path: string): Promise<string | undefined> => {
    if (path.startsWith("-") || path.includes("\0")) return undefined;
    try {
      return await git(instance.repo_path, ["show", `${instance.base_commit}:${path}`]);
    } catch {
      return undefined; // not in the base: a new file
    }
  };
}

/** Gathers one group's evidence: normalised keys, and the visible tests' results when a chain needs them. */
export async function gatherGroup(
  group: SampleGroup,
  dir: string,
  ref: TaskRef,
  /** The arm's sandbox and grading rules (its spec's); absent: the grader's defaults. */
  spec: Pick<RunSpec, "sandbox" | "rules"> | undefined,
  sampling: Sampling,
  verifier: Policy | undefined,
  signal?: AbortSignal,
): Promise<GroupEvidence> {
  const started = performance.now();
  const needs = evidenceNeeded(sampling.chains);
  const instance = await taskInstance(codingTask(ref));
  const patches: CandidatePatch[] = group.rows.map((r) => ({ sample: r.repeat, patch: readPatch(dir, r) }));
  const readBase = baseReader(instance);
  const candidates: CandidateEvidence[] = [];
  for (const [i, row] of group.rows.entries()) {
    const patch = patches[i]?.patch ?? "";
    const hasPatch = codePart(patch).trim() !== "";
    let normalised: string | null = null;
    if (needs.normalised && hasPatch)
      normalised =
        Buffer.byteLength(patch) > MAX_PATCH_BYTES
          ? `raw:${patch.length}:${patch}`
          : (await normalisePatch(patch, readBase)).key;
    candidates.push({
      attempt_id: row.id,
      has_patch: hasPatch,
      normalised,
      applied: null,
      regressions: null,
      reproductions_passed: null,
      detail: null,
      score: null,
      verifier_reply: null,
    });
  }
  let tests: TaskEvidence | undefined;
  if (needs.tests) {
    tests = await gatherTestEvidence(instance, patches, {
      ...(spec ? { backend: spec.sandbox, rules: spec.rules } : {}),
      ...(signal ? { signal } : {}),
    });
    for (const [i, row] of group.rows.entries()) {
      const c = tests.candidates[row.repeat];
      const entry = candidates[i];
      if (!c || !entry) continue;
      entry.applied = c.applied;
      entry.regressions = c.regressions;
      entry.reproductions_passed = c.reproductionsPassed;
      entry.detail = c.detail;
    }
  }
  const scored =
    needs.scores && verifier
      ? await scoreCandidates(verifier, instance, patches, candidates, tests, signal)
      : null;
  return {
    attempt_ids: sampleRuns(group.rows),
    tests: tests !== undefined,
    normalised: needs.normalised,
    verifier: scored && verifier ? verifier.spec : null,
    verifier_calls: scored?.calls ?? null,
    verifier_unparsable: scored?.unparsable ?? null,
    verifier_cost: scored ? scored.cost : null,
    base_passing: tests ? tests.basePassing.length : null,
    reproductions: tests ? tests.reproductions.length : null,
    base_error: tests?.baseError ?? null,
    detail: tests ? tests.reproductionFiles : null,
    wall_s: (performance.now() - started) / 1000,
    candidates,
  };
}

/** Replies kept per candidate: enough to see why a score was (not) read. */
const MAX_REPLY_CHARS = 4000;

/**
 * The verifier's score of every candidate with a code change, one model call each through the same
 * adapters as agents; a reply with no readable score is kept, counted and ranked last.
 */
async function scoreCandidates(
  policy: Policy,
  instance: Instance,
  patches: readonly CandidatePatch[],
  candidates: CandidateEvidence[],
  tests: TaskEvidence | undefined,
  signal: AbortSignal | undefined,
): Promise<{ calls: number; unparsable: number; cost: number | null }> {
  const price = policy.model ? priceFor(policy.model) : undefined;
  let cost: number | null = 0;
  let calls = 0;
  let unparsable = 0;
  for (const [i, c] of candidates.entries()) {
    const patch = patches[i];
    if (!c.has_patch || !patch || c.applied === false) continue;
    const seen = tests?.candidates[patch.sample];
    const prompt = verifierPrompt(
      instance.problem_statement,
      codePart(patch.patch),
      seen && tests && tests.baseError === undefined
        ? {
            basePassing: tests.basePassing.length,
            regressions: seen.regressions,
            reproductions: tests.reproductions.length,
            reproductionsPassed: seen.reproductionsPassed,
          }
        : undefined,
    );
    const reply = await policy.next(
      {
        system: VERIFIER_SYSTEM,
        tools: [],
        memory: "",
        messages: [{ role: "user", content: prompt }],
        maxOutputTokens: VERIFIER_MAX_OUTPUT_TOKENS,
      },
      signal,
    );
    calls += 1;
    const text = reply.message.content;
    c.score = parseScore(text);
    c.verifier_reply = text.slice(0, MAX_REPLY_CHARS);
    if (c.score === null) unparsable += 1;
    cost = cost === null || !price ? null : cost + costOf(reply.usage, price);
  }
  return { calls, unparsable, cost };
}

/**
 * Gathers and stores the evidence of every group that needs it, `workers` groups at once; each group
 * is one transaction, so an interrupt loses at most the groups in flight.
 */
export async function gatherSelection(
  store: AttemptStore,
  rows: readonly AttemptRow[],
  dir: string,
  sampling: Sampling,
  context: {
    taskOf: (row: AttemptRow) => TaskRef | undefined;
    specOf: (arm: string) => RunSpec | undefined;
    workers: number;
    signal?: AbortSignal;
    onGroup?: (event: EvidenceEvent) => void;
  },
): Promise<number> {
  const todo = groupsToGather(rows, sampling, store.selectionGroups());
  // The verifier is made once, before any grading: a missing key fails every group at once, saying
  // so, rather than after each group's test runs.
  let verifier: Policy | undefined;
  let verifierError: string | undefined;
  if (todo.length > 0 && sampling.verifier && evidenceNeeded(sampling.chains).scores)
    try {
      verifier = makePolicy(sampling.verifier);
    } catch (e) {
      verifierError = `the verifier ${sampling.verifier} cannot be used: ${e instanceof Error ? e.message : String(e)}`;
    }
  let finished = 0;
  await forEachLimited(
    todo,
    { workers: context.workers, ...(context.signal ? { signal: context.signal } : {}) },
    async (group) => {
      const first = group.rows[0] as AttemptRow;
      const ref = context.taskOf(first);
      let evidence: GroupEvidence | undefined;
      let error: string | undefined;
      try {
        if (verifierError !== undefined) throw new Error(verifierError);
        if (!ref) throw new Error(`task "${group.task}" is not in the experiment file any more`);
        evidence = await gatherGroup(
          group,
          dir,
          ref,
          context.specOf(group.arm),
          sampling,
          verifier,
          context.signal,
        );
        if (context.signal?.aborted) {
          // Evidence of a run cut short may hold half-run tests: never stored, gathered again next time.
          evidence = undefined;
          error = "interrupted: gathered again by the next run";
        } else store.recordSelection(group, evidence);
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      finished += 1;
      context.onGroup?.({
        group,
        finished,
        total: todo.length,
        ...(error !== undefined ? { error } : {}),
        ...(evidence ? { evidence } : {}),
      });
    },
  );
  return todo.length;
}
