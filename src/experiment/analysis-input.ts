/**
 * The edge of the analysis: DIR/experiment.db opened read-only (a report never claims, writes or
 * migrates the store, and runs beside a live `experiment run`), and each done attempt's trajectory
 * read from its folder. What cannot be read is marked, never fatal: the report still renders.
 */
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { builtinTasksDir, listTaskIds, loadTask } from "../tasks/index.js";
import { readTrajectory } from "../trajectory/index.js";
import type { AnalysisInput, ReadTrajectory, StoredArm } from "./analyze.js";
import { attemptDir } from "./run.js";
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

/** The test commands of the built-in coding tasks among `ids`; other ids get the generic patterns. */
function testCommandsOf(ids: Iterable<string>): Map<string, string[]> {
  const builtin = new Set(listTaskIds());
  const commands = new Map<string, string[]>();
  for (const id of ids) {
    if (!builtin.has(id) || commands.has(id)) continue;
    try {
      // By its folder, never by `id` alone: loadTask would try a folder of that name in the cwd first.
      commands.set(id, loadTask(join(builtinTasksDir(), id)).testCommand);
    } catch {
      // a broken task folder: the generic test-runner patterns still apply
    }
  }
  return commands;
}

/**
 * Everything the analysis needs from DIR. `baseline` overrides the one the run recorded; a store
 * from before baselines were recorded falls back to its first arm.
 */
export function readExperimentDir(dir: string, baseline?: string): AnalysisInput & { baselineFrom: string } {
  const file = join(dir, DB_FILE);
  if (!existsSync(file))
    throw new StoreRefused(
      `${dir} has no ${DB_FILE} — run "acilab experiment run FILE --out ${dir}" first, or point report at the folder a run wrote`,
    );
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
    const coding = attempts.filter((r) => r.status === "done" && r.task_kind === "coding");
    const testCommands = testCommandsOf(coding.map((r) => r.task));
    return {
      experiment: meta.get("experiment") ?? "",
      baseline: chosen,
      baselineFrom,
      arms,
      attempts,
      trajectories,
      testCommands,
    };
  } finally {
    db.close();
  }
}
