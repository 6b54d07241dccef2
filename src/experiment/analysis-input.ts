/**
 * The edge of the analysis: DIR/experiment.db opened read-only (a report never claims, writes or
 * migrates the store, and runs beside a live `experiment run`), and each done attempt's trajectory
 * read from its folder. What cannot be read is marked, never fatal: the report still renders.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { builtinTasksDir, listTaskIds, loadTask } from "../tasks/index.js";
import { readTrajectory } from "../trajectory/index.js";
import type { AnalysisInput, ReadTrajectory, StoredArm } from "./analyze.js";
import { attemptDir } from "./run.js";
import type {
  EvidenceCandidateRow,
  EvidenceGroupRow,
  RecordedSampling,
  SamplingEvidence,
} from "./sampling-analysis.js";
import { type AttemptRow, checkVersion, DB_FILE, StoreRefused } from "./store.js";

/** A trajectory larger than this is not parsed (a report must not run out of memory on one attempt). */
const MAX_TRAJECTORY_BYTES = 256 * 1024 * 1024;

/** The trajectory of one attempt, or why there is none to read. */
export function readAttemptTrajectory(file: string): ReadTrajectory {
  let size: number;
  try {
    const st = lstatSync(file);
    if (!st.isFile())
      return { state: "unreadable", records: null, warnings: [`${file} is not a regular file`] };
    size = st.size;
  } catch {
    return { state: "missing", records: null, warnings: [`${file} does not exist`] };
  }
  if (size > MAX_TRAJECTORY_BYTES)
    return {
      state: "unreadable",
      records: null,
      warnings: [`${file} is ${size} bytes, over the report's cap`],
    };
  try {
    const { records, warnings } = readTrajectory(file);
    const ended = records.some((r) => r.type === "run_end");
    if (!ended) warnings.push(`${file} has no run_end record: the run was cut short`);
    return { state: warnings.length > 0 || !ended ? "truncated" : "ok", records, warnings };
  } catch (e) {
    return { state: "unreadable", records: null, warnings: [e instanceof Error ? e.message : String(e)] };
  }
}

/** A report.json larger than this is not one instance's report: it is not read for its flag. */
const MAX_REPORT_BYTES = 16 * 1024 * 1024;

/** What the built-in coding tasks among `ids` say of themselves: test commands and impossibility. */
function builtinFacts(ids: Iterable<string>): {
  testCommands: Map<string, string[]>;
  impossible: Set<string>;
} {
  const builtin = new Set(listTaskIds());
  const testCommands = new Map<string, string[]>();
  const impossible = new Set<string>();
  for (const id of ids) {
    if (!builtin.has(id) || testCommands.has(id)) continue;
    try {
      // By its folder, never by `id` alone: loadTask would try a folder of that name in the cwd first.
      const task = loadTask(join(builtinTasksDir(), id));
      testCommands.set(id, task.testCommand);
      if (task.impossible) impossible.add(id);
    } catch {
      // a broken task folder: the generic test-runner patterns still apply
    }
  }
  return { testCommands, impossible };
}

/** Did the grader mark this attempt's task impossible? Its report.json says (`impossible: true`). */
function reportSaysImpossible(dir: string, row: AttemptRow): boolean {
  if (row.report === null) return false;
  const file = join(dir, row.report);
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > MAX_REPORT_BYTES) return false;
    const report = JSON.parse(readFileSync(file, "utf8")) as Record<string, { impossible?: unknown } | null>;
    return Object.values(report).some((entry) => entry?.impossible === true);
  } catch {
    return false; // an unreadable report is the inspector's to show; it flags nothing
  }
}

/**
 * The impossible tasks among DIR's attempts (by id): those the grader marked so in a graded
 * attempt's report.json (an instances file's `impossible`), and the built-in ones that say so.
 */
export function impossibleTasks(dir: string, attempts: readonly AttemptRow[]): Set<string> {
  const coding = attempts.filter((r) => r.task_kind === "coding");
  const found = builtinFacts(coding.map((r) => r.task)).impossible;
  for (const r of coding)
    if (r.status === "done" && !found.has(r.task) && reportSaysImpossible(dir, r)) found.add(r.task);
  return found;
}

/** The sampling a run recorded; a value this acilab cannot read is left out, with the report saying nothing of it. */
function recordedSampling(value: string | undefined): RecordedSampling | null {
  if (value === undefined) return null;
  try {
    const parsed = JSON.parse(value) as Partial<RecordedSampling>;
    if (typeof parsed.samples === "number" && Array.isArray(parsed.selectors))
      return {
        samples: parsed.samples,
        selectors: parsed.selectors.filter((s) => typeof s === "string"),
        verifier: typeof parsed.verifier === "string" ? parsed.verifier : null,
      };
  } catch {
    // not JSON: not ours
  }
  return null;
}

/** The selection tables, if the store has them (a store from before they existed has none). */
function readEvidence(db: Database.Database): SamplingEvidence {
  const has = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'selection_evidence'")
    .get();
  if (!has) return { groups: [], candidates: new Map() };
  const groups = db
    .prepare<
      [],
      Omit<EvidenceGroupRow, "attempt_ids" | "tests" | "normalised"> & {
        attempt_ids: string;
        tests: number;
        normalised: number;
      }
    >(
      "SELECT arm, arm_version, task_kind, task, attempt_ids, tests, normalised, verifier, verifier_calls, verifier_unparsable, verifier_cost, base_passing, reproductions, base_error FROM selection_groups",
    )
    .all()
    .map((g) => ({
      ...g,
      attempt_ids: JSON.parse(g.attempt_ids) as [number, number][],
      tests: g.tests === 1,
      normalised: g.normalised === 1,
    }));
  const bool = (v: number | null) => (v === null ? null : v === 1);
  const candidates = new Map<number, EvidenceCandidateRow>(
    db
      .prepare<
        [],
        Omit<EvidenceCandidateRow, "has_patch" | "applied"> & { has_patch: number; applied: number | null }
      >(
        "SELECT attempt_id, has_patch, normalised, applied, regressions, reproductions_passed, score FROM selection_evidence",
      )
      .all()
      .map((c) => [c.attempt_id, { ...c, has_patch: c.has_patch === 1, applied: bool(c.applied) }]),
  );
  return { groups, candidates };
}

/** Experiment folders a few levels under `dir` (a user who named runs/ rather than runs/experiment-x). */
function experimentsInside(dir: string, depth = 2): string[] {
  if (depth === 0) return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const sub = join(dir, name);
    if (name === "attempts" || !statSync(sub, { throwIfNoEntry: false })?.isDirectory()) return [];
    return existsSync(join(sub, DB_FILE)) ? [sub] : experimentsInside(sub, depth - 1);
  });
}

/** Why DIR is not an experiment's folder, and what to point the command at instead. */
function notAnExperiment(dir: string): string {
  const forExample =
    'give the --out folder of "acilab experiment run" (it holds experiment.db and attempts/)';
  if (!existsSync(dir)) return `there is no folder ${dir} — ${forExample}`;
  if (!statSync(dir).isDirectory()) return `${dir} is a file, not an experiment's folder — ${forExample}`;
  if (existsSync(join(dir, "result.json")) || existsSync(join(dir, "trajectory.jsonl")))
    return `${dir} is one run's folder (it has result.json or trajectory.jsonl, and no ${DB_FILE}), not an experiment's — "acilab inspect ${dir}" shows a single run; for an experiment, ${forExample}`;
  const inside = experimentsInside(dir);
  if (inside.length > 0)
    return `${dir} is not an experiment's folder, but holds ${inside.length === 1 ? "one" : inside.length}: ${inside.slice(0, 5).join(", ")}${inside.length > 5 ? ", …" : ""} — name that folder`;
  return `${dir} has no ${DB_FILE}, so it is not an experiment's folder — ${forExample}, or run "acilab experiment run FILE --out ${dir}" first`;
}

/**
 * Everything the analysis needs from DIR. `baseline` overrides the one the run recorded; a store
 * from before baselines were recorded falls back to its first arm.
 */
export function readExperimentDir(dir: string, baseline?: string): AnalysisInput & { baselineFrom: string } {
  const file = join(dir, DB_FILE);
  if (!existsSync(file)) throw new StoreRefused(notAnExperiment(dir));
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    checkVersion(db, file);
    const meta = new Map(
      db
        .prepare<[], { key: string; value: string }>("SELECT key, value FROM meta")
        .all()
        .map((m) => [m.key, m.value]),
    );
    const arms: StoredArm[] = db
      .prepare<[], { name: string; version: number; hash: string; definition: string }>(
        "SELECT name, version, hash, definition FROM arms ORDER BY rowid",
      )
      .all()
      .map((a) => ({ ...a, definition: JSON.parse(a.definition) as Record<string, unknown> }));
    const attempts = db
      .prepare<[], AttemptRow>("SELECT * FROM attempts ORDER BY id")
      .all()
      .map((r) => ({ ...r, resolved: r.resolved === null ? null : Boolean(r.resolved) }));
    const stored = meta.get("baseline");
    const chosen = baseline ?? stored ?? arms[0]?.name ?? "";
    const baselineFrom = baseline
      ? "--baseline"
      : stored
        ? "recorded by the run"
        : "the first arm: the run recorded none";
    const trajectories = new Map<number, ReadTrajectory>();
    for (const r of attempts) {
      if (r.status !== "done") continue;
      trajectories.set(
        r.id,
        readAttemptTrajectory(join(dir, r.trajectory ?? join(attemptDir(r), "trajectory.jsonl"))),
      );
    }
    const sampling = recordedSampling(meta.get("sampling"));
    const coding = attempts.filter((r) => r.status === "done" && r.task_kind === "coding");
    const { testCommands } = builtinFacts(coding.map((r) => r.task));
    return {
      experiment: meta.get("experiment") ?? "",
      baseline: chosen,
      baselineFrom,
      arms,
      attempts,
      trajectories,
      testCommands,
      impossible: impossibleTasks(dir, attempts),
      sampling,
      evidence: sampling ? readEvidence(db) : { groups: [], candidates: new Map() },
    };
  } finally {
    db.close();
  }
}
