/**
 * The attempt store: `DIR/experiment.db`, one SQLite file (WAL) that survives `kill -9` at any
 * moment. Every change of state is one transaction, so a killed run leaves each attempt either as it
 * was or as it became, never half of each; the UNIQUE key makes a duplicate row impossible.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ownerState, ownerToken } from "../owners/index.js";
import { canonicalJson } from "../run/index.js";
import type { ResolvedArm } from "./arms.js";
import { StoreRefused } from "./store-errors.js";
import { claimDatabase, releaseDatabase } from "./store-holder.js";
import { SCHEMA_SQL, SCHEMA_VERSION } from "./store-schema.js";
import {
  type GroupEvidenceRecord,
  type RecordedSamplingInput,
  recordSampling,
  recordSelection,
  type SelectionGroupKey,
  type StoredGroup,
  selectionGroups,
} from "./store-selection.js";

export { StoreRefused } from "./store-errors.js";
export { SCHEMA_VERSION } from "./store-schema.js";
export {
  type CandidateEvidence,
  type GroupEvidenceRecord,
  type SampleRuns,
  type SelectionGroupKey,
  type StoredGroup,
  sampleRuns,
} from "./store-selection.js";

export const DB_FILE = "experiment.db";
/** A writer waits this long for another connection's transaction (a reader in a report, say). */
const BUSY_TIMEOUT_MS = 10_000;
/** Databases open in this process: its one owner token cannot tell two of its own runs apart. */
const OPEN_HERE = new Set<string>();

export type AttemptStatus = "pending" | "running" | "done" | "no_script" | "error";

export interface AttemptKey {
  arm: string;
  arm_version: number;
  task_kind: string;
  task: string;
  repeat: number;
}

/** What a finished attempt records; paths are relative to DIR. */
export interface AttemptOutcome {
  resolved: boolean;
  stop_reason: string;
  steps: number;
  tokens_in: number;
  tokens_out: number;
  cache_read: number;
  cache_write: number;
  cost_usd: number | null;
  wall_s: number;
  first_edit_step: number | null;
  failure_class: string | null;
  trajectory: string | null;
  patch: string | null;
  report: string | null;
}

export type AttemptRow = AttemptKey & { [K in keyof AttemptOutcome]: AttemptOutcome[K] | null } & {
  id: number;
  status: AttemptStatus;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** How many times the attempt was started: 1 for one that ran once, more if a run was killed in it. */
  runs: number;
};

/** A group's stored evidence, as `groupsToGather` compares it with the attempts. */
export interface ArmVersion {
  name: string;
  version: number;
  hash: string;
}

export class AttemptStore {
  private constructor(
    readonly db: Database.Database,
    readonly file: string,
    readonly token: string,
    /** Set when this run took the database over from a dead or stale holder: says which. */
    readonly tookOver: string | undefined,
    /** The database's own id (meta `uid`), made once when it was created. */
    readonly uid: string,
  ) {}

  /**
   * Opens (creating) DIR/experiment.db and claims it for this process. Refuses, changing nothing, a
   * database of another schema version or one another live `experiment run` holds.
   */
  static async open(dir: string, experiment: string): Promise<AttemptStore> {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, DB_FILE);
    if (OPEN_HERE.has(file))
      throw new StoreRefused(
        `${file} is already open in this process — one experiment run per database at a time`,
      );
    OPEN_HERE.add(file); // before the first await: two opens racing here see each other
    const fresh = !existsSync(file);
    let db: Database.Database | undefined;
    try {
      const d = new Database(file);
      db = d;
      d.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      if (!fresh) checkVersion(db, file); // before anything writes: a refused file stays as it was
      d.pragma("journal_mode = WAL");
      // NORMAL under WAL loses at most the last commits on power loss, never consistency; a process
      // kill loses nothing (the WAL is in the OS's cache).
      d.pragma("synchronous = NORMAL");
      d.pragma("foreign_keys = ON");
      d.transaction(() => {
        d.exec(SCHEMA_SQL);
        const put = d.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)");
        put.run("schema_version", String(SCHEMA_VERSION));
        put.run("experiment", experiment);
        put.run("created_at", new Date().toISOString());
        // This database's own name, never reused: a queue's jobs are named after it (src/scale), so a
        // folder deleted and planned again cannot collect an earlier incarnation's results.
        put.run("uid", randomUUID());
      })();
      const uid = d.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'uid'").get()?.value;
      const token = ownerToken();
      const tookOver = await claimDatabase(d, file, token, ownerState);
      return new AttemptStore(d, file, token, tookOver, uid ?? "");
    } catch (err) {
      db?.close();
      OPEN_HERE.delete(file);
      throw err;
    }
  }

  /** Lets go of the database (another run may take it at once) and closes it. */
  close(): void {
    if (!this.db.open) return;
    releaseDatabase(this.db, this.token);
    this.db.close();
    OPEN_HERE.delete(this.file);
  }

  /** Keeps the holder's claim fresh, so a holder nobody can check is not taken for a dead one. */
  heartbeat(): void {
    this.db
      .prepare(
        "UPDATE meta SET value = ? WHERE key = 'heartbeat_at' AND EXISTS (SELECT 1 FROM meta WHERE key = 'holder' AND value = ?)",
      )
      .run(new Date().toISOString(), this.token);
  }

  /**
   * Each arm's version for this run: its stored one when the hash matches, a new one when it does not
   * and `newVersion` says so, else refused naming the arm. All or nothing: one transaction. A store
   * written before RunSpec recorded the hash of the file's fields alone: an arm whose fields are the
   * same keeps its version, and its stored hash becomes the RunSpec's.
   */
  syncArms(
    arms: ReadonlyArray<Pick<ResolvedArm, "name" | "fields" | "hash"> & { legacyHash?: string }>,
    newVersion: boolean,
  ): ArmVersion[] {
    const latest = this.db.prepare<[string], { version: number; hash: string }>(
      "SELECT version, hash FROM arms WHERE name = ? ORDER BY version DESC LIMIT 1",
    );
    const insert = this.db.prepare(
      "INSERT INTO arms (name, version, hash, definition, created_at) VALUES (?, ?, ?, ?, ?)",
    );
    const rehash = this.db.prepare("UPDATE arms SET hash = ? WHERE name = ? AND version = ?");
    return this.db.transaction(() =>
      arms.map((arm) => {
        const stored = latest.get(arm.name);
        if (stored?.hash === arm.hash) return { name: arm.name, version: stored.version, hash: arm.hash };
        if (arm.legacyHash !== undefined && stored?.hash === arm.legacyHash) {
          rehash.run(arm.hash, arm.name, stored.version);
          return { name: arm.name, version: stored.version, hash: arm.hash };
        }
        if (stored && !newVersion)
          throw new StoreRefused(
            `arm "${arm.name}" changed since ${this.file} recorded it (hash ${stored.hash.slice(0, 12)} → ${arm.hash.slice(0, 12)}) — rerun with --new-arm-version to run it as version ${stored.version + 1} (its version-${stored.version} attempts are kept), put the old definition back, or use another --out`,
          );
        const version = (stored?.version ?? 0) + 1;
        insert.run(arm.name, version, arm.hash, canonicalJson(arm.fields), new Date().toISOString());
        return { name: arm.name, version, hash: arm.hash };
      }),
    )();
  }

  /** Which arm the others are compared with: the report reads it back (the file may have changed). */
  recordBaseline(name: string): void {
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('baseline', ?)").run(name);
  }

  /** The sampling the run asks for (samples and chains): the report reads it back. */
  recordSampling(sampling: RecordedSamplingInput | null): void {
    recordSampling(this.db, sampling);
  }

  /** The groups that have selection evidence, and which kinds. */
  selectionGroups(): (SelectionGroupKey & StoredGroup)[] {
    return selectionGroups(this.db);
  }

  /** One group's evidence, replacing what was there, in one transaction. */
  recordSelection(group: SelectionGroupKey, evidence: GroupEvidenceRecord): void {
    recordSelection(this.db, group, evidence);
  }

  /** Inserts the attempts not there yet, as pending, in one transaction; returns how many were new. */
  plan(keys: readonly AttemptKey[]): number {
    const insert = this.db.prepare(
      "INSERT OR IGNORE INTO attempts (arm, arm_version, task_kind, task, repeat) VALUES (@arm, @arm_version, @task_kind, @task, @repeat)",
    );
    return this.db.transaction(() => keys.reduce((n, key) => n + insert.run(key).changes, 0))();
  }

  /** Attempts a killed run left `running` go back to pending (this process holds the database). */
  requeueRunning(): number {
    return this.db
      .prepare("UPDATE attempts SET status = 'pending', started_at = NULL WHERE status = 'running'")
      .run().changes;
  }

  /** The attempts of these arm versions, in plan order. */
  attempts(arms: readonly ArmVersion[]): AttemptRow[] {
    const select = this.db.prepare<[string, number], AttemptRow>(
      "SELECT * FROM attempts WHERE arm = ? AND arm_version = ? ORDER BY id",
    );
    return arms
      .flatMap((a) => select.all(a.name, a.version))
      .map(asRow)
      .sort((a, b) => a.id - b.id);
  }

  attempt(id: number): AttemptRow | undefined {
    const row = this.db.prepare<[number], AttemptRow>("SELECT * FROM attempts WHERE id = ?").get(id);
    return row && asRow(row);
  }

  markRunning(id: number): void {
    this.db
      .prepare(
        "UPDATE attempts SET status = 'running', runs = runs + 1, started_at = ?, finished_at = NULL, error = NULL WHERE id = ?",
      )
      .run(new Date().toISOString(), id);
  }

  markDone(id: number, outcome: AttemptOutcome): void {
    this.db
      .prepare(
        `UPDATE attempts SET status = 'done', resolved = @resolved, stop_reason = @stop_reason, steps = @steps,
           tokens_in = @tokens_in, tokens_out = @tokens_out, cache_read = @cache_read, cache_write = @cache_write,
           cost_usd = @cost_usd, wall_s = @wall_s, first_edit_step = @first_edit_step,
           failure_class = @failure_class, trajectory = @trajectory, patch = @patch, report = @report,
           error = NULL, finished_at = @finished_at WHERE id = @id`,
      )
      .run({ ...outcome, resolved: outcome.resolved ? 1 : 0, finished_at: new Date().toISOString(), id });
  }

  /** `no_script` or `error`, with the sentence that says why. */
  markUnrun(id: number, status: "no_script" | "error", why: string): void {
    this.db
      .prepare("UPDATE attempts SET status = ?, error = ?, finished_at = ? WHERE id = ?")
      .run(status, why, new Date().toISOString(), id);
  }

  /** An attempt an interrupt stopped is not finished: the next run does it again. */
  markPending(id: number): void {
    this.db.prepare("UPDATE attempts SET status = 'pending', started_at = NULL WHERE id = ?").run(id);
  }
}

/** SQLite has no booleans: `resolved` comes back as 0 or 1. */
function asRow(row: AttemptRow): AttemptRow {
  return { ...row, resolved: row.resolved === null ? null : Boolean(row.resolved) };
}

/** A database of another schema version is refused, with what to do, before anything writes to it. */
export function checkVersion(db: Database.Database, file: string): void {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  const tables = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master").get()?.n ?? 0;
  if (!hasMeta) {
    if (tables === 0) return; // an empty file: ours to initialise
    throw new StoreRefused(
      `${file} is not an acilab experiment database (no meta table) — move it away or choose another --out`,
    );
  }
  const row = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").get();
  const version = Number(row?.value);
  if (version === SCHEMA_VERSION) return;
  if (!Number.isInteger(version))
    throw new StoreRefused(
      `${file} has no schema_version — it was not written by acilab's experiment run; move it away or choose another --out`,
    );
  throw new StoreRefused(
    version < SCHEMA_VERSION
      ? `${file} was written by an older acilab (schema version ${version}; this acilab reads version ${SCHEMA_VERSION}) — finish or report it with the acilab that wrote it, or start afresh with another --out (the file is left as it is)`
      : `${file} was written by a newer acilab (schema version ${version}; this acilab reads version ${SCHEMA_VERSION}) — upgrade acilab to continue it, or use another --out (the file is left as it is)`,
  );
}
