/**
 * The attempt store's tables. Bump SCHEMA_VERSION whenever a table changes meaning or shape; a
 * database of another version is refused with what to do, never migrated behind the user's back.
 */
export const SCHEMA_VERSION = 1;

export const ATTEMPT_STATUSES = ["pending", "running", "done", "no_script", "error"] as const;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS arms (
  name       TEXT NOT NULL,
  version    INTEGER NOT NULL,
  hash       TEXT NOT NULL,
  definition TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (name, version)
);
CREATE TABLE IF NOT EXISTS attempts (
  id              INTEGER PRIMARY KEY,
  arm             TEXT NOT NULL,
  arm_version     INTEGER NOT NULL,
  task_kind       TEXT NOT NULL,
  task            TEXT NOT NULL,
  repeat          INTEGER NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending'
                  CHECK (status IN (${ATTEMPT_STATUSES.map((s) => `'${s}'`).join(", ")})),
  resolved        INTEGER,
  stop_reason     TEXT,
  steps           INTEGER,
  tokens_in       INTEGER,
  tokens_out      INTEGER,
  cache_read      INTEGER,
  cache_write     INTEGER,
  cost_usd        REAL,
  wall_s          REAL,
  first_edit_step INTEGER,
  failure_class   TEXT,
  error           TEXT,
  trajectory      TEXT,
  patch           TEXT,
  report          TEXT,
  started_at      TEXT,
  finished_at     TEXT,
  runs            INTEGER NOT NULL DEFAULT 0,
  UNIQUE (arm, arm_version, task_kind, task, repeat),
  FOREIGN KEY (arm, arm_version) REFERENCES arms (name, version)
);
CREATE INDEX IF NOT EXISTS attempts_status ON attempts (status);
-- Selection evidence (experiments with samples): added tables, so a store of schema version 1
-- without them is still version 1 — a report of it finds no evidence, and a run gathers it.
CREATE TABLE IF NOT EXISTS selection_groups (
  arm            TEXT NOT NULL,
  arm_version    INTEGER NOT NULL,
  task_kind      TEXT NOT NULL,
  task           TEXT NOT NULL,
  -- The samples the evidence is of, in sample order, as JSON [[attempt id, runs], …]: evidence of
  -- other attempts, or of an attempt since run again, is stale.
  attempt_ids    TEXT NOT NULL,
  tests          INTEGER NOT NULL,
  normalised     INTEGER NOT NULL,
  -- The verifier's policy spec when its scores were gathered, and what they cost.
  verifier       TEXT,
  verifier_calls INTEGER,
  verifier_unparsable INTEGER,
  verifier_cost  REAL,
  base_passing   INTEGER,
  reproductions  INTEGER,
  base_error     TEXT,
  detail         TEXT,
  wall_s         REAL NOT NULL,
  gathered_at    TEXT NOT NULL,
  PRIMARY KEY (arm, arm_version, task_kind, task)
);
CREATE TABLE IF NOT EXISTS selection_evidence (
  attempt_id           INTEGER PRIMARY KEY REFERENCES attempts (id),
  has_patch            INTEGER NOT NULL,
  normalised           TEXT,
  applied              INTEGER,
  regressions          INTEGER,
  reproductions_passed INTEGER,
  detail               TEXT,
  score                REAL,
  verifier_reply       TEXT
);
`;
