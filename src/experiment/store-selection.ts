/**
 * The selection evidence's tables (selection_groups, selection_evidence) and the run's recorded
 * sampling (meta `sampling`): their record types and the statements that write and read them.
 */
import type Database from "better-sqlite3";
import type { AttemptKey, AttemptRow } from "./store.js";

/** What a run records of its sampling: samples, the chains' specs, the verifier. */
export interface RecordedSamplingInput {
  samples: number;
  chains: { spec: string }[];
  verifier: string | null;
}

/**
 * The samples a group's evidence is of: each attempt's id and how many times it was started, so a
 * sample run again (same id, one more start) makes the evidence stale.
 */
export type SampleRuns = [id: number, runs: number][];

export const sampleRuns = (rows: readonly Pick<AttemptRow, "id" | "runs">[]): SampleRuns =>
  rows.map((r) => [r.id, r.runs]);

export interface StoredGroup {
  attempt_ids: SampleRuns;
  tests: boolean;
  normalised: boolean;
  /** The verifier spec whose scores are stored; null when none are. */
  verifier: string | null;
}

export type SelectionGroupKey = Pick<AttemptKey, "arm" | "arm_version" | "task_kind" | "task">;

/** One candidate's selection evidence, as the table `selection_evidence` keeps it. */
export interface CandidateEvidence {
  attempt_id: number;
  has_patch: boolean;
  normalised: string | null;
  applied: boolean | null;
  regressions: number | null;
  reproductions_passed: number | null;
  detail: string | null;
  /** The verifier's score; null when its reply had none (the reply is kept to show why). */
  score: number | null;
  verifier_reply: string | null;
}

/** A group's selection evidence, as the table `selection_groups` keeps it (its candidates apart). */
export interface GroupEvidenceRecord extends StoredGroup {
  verifier_calls: number | null;
  verifier_unparsable: number | null;
  /** Dollars the verifier's calls cost; null when its model has no known price. */
  verifier_cost: number | null;
  base_passing: number | null;
  reproductions: number | null;
  base_error: string | null;
  /** Where each pooled reproduction test came from (JSON in the store). */
  detail: { sample: number; path: string; pooledAs: string }[] | null;
  wall_s: number;
  candidates: CandidateEvidence[];
}

/** The sampling the run asks for (samples and chains): the report reads it back. */
export function recordSampling(db: Database.Database, sampling: RecordedSamplingInput | null): void {
  if (sampling === null) db.prepare("DELETE FROM meta WHERE key = 'sampling'").run();
  else
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('sampling', ?)").run(
      JSON.stringify({
        samples: sampling.samples,
        selectors: sampling.chains.map((c) => c.spec),
        verifier: sampling.verifier,
      }),
    );
}

/** The groups that have selection evidence, and which kinds. */
export function selectionGroups(db: Database.Database): (SelectionGroupKey & StoredGroup)[] {
  return db
    .prepare<
      [],
      SelectionGroupKey & {
        attempt_ids: string;
        tests: number;
        normalised: number;
        verifier: string | null;
      }
    >(
      "SELECT arm, arm_version, task_kind, task, attempt_ids, tests, normalised, verifier FROM selection_groups",
    )
    .all()
    .map((r) => ({
      ...r,
      attempt_ids: JSON.parse(r.attempt_ids) as SampleRuns,
      tests: r.tests === 1,
      normalised: r.normalised === 1,
    }));
}

/** One group's evidence, replacing what was there, in one transaction. */
export function recordSelection(
  db: Database.Database,
  group: SelectionGroupKey,
  evidence: GroupEvidenceRecord,
): void {
  const putGroup = db.prepare(
    `INSERT OR REPLACE INTO selection_groups (arm, arm_version, task_kind, task, attempt_ids, tests, normalised,
         verifier, verifier_calls, verifier_unparsable, verifier_cost,
         base_passing, reproductions, base_error, detail, wall_s, gathered_at)
       VALUES (@arm, @arm_version, @task_kind, @task, @attempt_ids, @tests, @normalised,
         @verifier, @verifier_calls, @verifier_unparsable, @verifier_cost,
         @base_passing, @reproductions, @base_error, @detail, @wall_s, @gathered_at)`,
  );
  const putCandidate = db.prepare(
    `INSERT OR REPLACE INTO selection_evidence (attempt_id, has_patch, normalised, applied, regressions, reproductions_passed, detail, score, verifier_reply)
       VALUES (@attempt_id, @has_patch, @normalised, @applied, @regressions, @reproductions_passed, @detail, @score, @verifier_reply)`,
  );
  const bit = (b: boolean | null) => (b === null ? null : b ? 1 : 0);
  db.transaction(() => {
    putGroup.run({
      arm: group.arm,
      arm_version: group.arm_version,
      task_kind: group.task_kind,
      task: group.task,
      attempt_ids: JSON.stringify(evidence.attempt_ids),
      tests: bit(evidence.tests),
      normalised: bit(evidence.normalised),
      verifier: evidence.verifier,
      verifier_calls: evidence.verifier_calls,
      verifier_unparsable: evidence.verifier_unparsable,
      verifier_cost: evidence.verifier_cost,
      base_passing: evidence.base_passing,
      reproductions: evidence.reproductions,
      base_error: evidence.base_error,
      detail: evidence.detail === null ? null : JSON.stringify(evidence.detail),
      wall_s: evidence.wall_s,
      gathered_at: new Date().toISOString(),
    });
    for (const c of evidence.candidates)
      putCandidate.run({ ...c, has_patch: bit(c.has_patch), applied: bit(c.applied) });
  })();
}
