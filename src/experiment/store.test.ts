import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { HANG_GUARD_MS } from "../testing/time.js";
import { legacyArmHash, type ResolvedArm, resolveArms } from "./arms.js";
import { type AttemptKey, AttemptStore, DB_FILE, SCHEMA_VERSION, StoreRefused } from "./store.js";
import { STALE_MS } from "./store-holder.js";

const ROOT = join(import.meta.dirname, "..", "..");
let dirs: string[] = [];
let children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children) c.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
  children = [];
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "acilab-store-"));
  dirs.push(dir);
  return dir;
}

function arm(name: string, tools: string): ResolvedArm {
  return resolveArms({}, [{ name, tools }])[0] as ResolvedArm;
}

function keys(armName: string, version: number): AttemptKey[] {
  return ["a", "b"].flatMap((task) =>
    [1, 2].map((repeat) => ({ arm: armName, arm_version: version, task_kind: "coding", task, repeat })),
  );
}

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Another process that opens the store and holds it until killed. */
async function holderProcess(dir: string): Promise<ChildProcess> {
  const script = join(dir, "hold.mts");
  writeFileSync(
    script,
    `import { AttemptStore } from ${JSON.stringify(join(ROOT, "src/experiment/store.ts"))};
await AttemptStore.open(${JSON.stringify(dir)}, "held");
process.stdout.write("held\\n");
setInterval(() => undefined, 1000);
`,
  );
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    const guard = setTimeout(
      () => reject(new Error("the holder never said it held the store")),
      HANG_GUARD_MS,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("held")) {
        clearTimeout(guard);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

describe("AttemptStore", () => {
  it("creates a WAL database with its schema version and plans attempts once, however often asked", async () => {
    const dir = tempDir();
    const store = await AttemptStore.open(dir, "exp");
    const [v] = store.syncArms([arm("full", "full")], false);
    expect(v).toMatchObject({ name: "full", version: 1 });
    expect(store.plan(keys("full", 1))).toBe(4);
    expect(store.plan(keys("full", 1))).toBe(0);
    expect(store.attempts([v!]).map((r) => [r.task, r.repeat, r.status])).toEqual([
      ["a", 1, "pending"],
      ["a", 2, "pending"],
      ["b", 1, "pending"],
      ["b", 2, "pending"],
    ]);
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    store.close();
    const db = new Database(join(dir, DB_FILE), { readonly: true });
    const meta = Object.fromEntries(
      db
        .prepare<[], { key: string; value: string }>("SELECT key, value FROM meta")
        .all()
        .map((r) => [r.key, r.value]),
    );
    expect(meta.schema_version).toBe(String(SCHEMA_VERSION));
    expect(meta.holder).toBeUndefined(); // released on close
    // The key is UNIQUE in the table itself, not only in the code that inserts.
    expect(() =>
      db
        .prepare(
          "INSERT INTO attempts (arm, arm_version, task_kind, task, repeat) VALUES ('full', 1, 'coding', 'a', 1)",
        )
        .run(),
    ).toThrow();
    db.close();
  });

  it("records a finished attempt's fields and puts running ones back to pending", async () => {
    const dir = tempDir();
    const store = await AttemptStore.open(dir, "exp");
    const arms = store.syncArms([arm("full", "full")], false);
    store.plan(keys("full", 1));
    const [first, second] = store.attempts(arms);
    store.markRunning(first!.id);
    store.markDone(first!.id, {
      resolved: true,
      stop_reason: "submitted",
      steps: 9,
      tokens_in: 100,
      tokens_out: 10,
      cache_read: 0,
      cache_write: 0,
      cost_usd: 0,
      wall_s: 1.5,
      first_edit_step: 5,
      failure_class: null,
      trajectory: "attempts/full/a/1/trajectory.jsonl",
      patch: null,
      report: null,
    });
    store.markRunning(second!.id);
    expect(store.requeueRunning()).toBe(1);
    const rows = store.attempts(arms);
    expect(rows[0]).toMatchObject({ status: "done", resolved: true, steps: 9, first_edit_step: 5, runs: 1 });
    expect(rows[1]).toMatchObject({ status: "pending", runs: 1 });
    store.close();
  });

  it("refuses an arm whose definition changed, naming it, and --new-arm-version starts version 2", async () => {
    const dir = tempDir();
    let store = await AttemptStore.open(dir, "exp");
    store.plan(
      keys("full", store.syncArms([arm("full", "full"), arm("lean", "no-search")], false)[0]!.version),
    );
    store.close();

    store = await AttemptStore.open(dir, "exp");
    const changed = [arm("full", "full"), arm("lean", "shell-only")];
    expect(() => store.syncArms(changed, false)).toThrow(StoreRefused);
    expect(() => store.syncArms(changed, false)).toThrow(
      /arm "lean" changed .*--new-arm-version to run it as version 2/,
    );
    // All or nothing: the refusal stored no arm.
    expect(store.db.prepare("SELECT count(*) AS n FROM arms").get()).toEqual({ n: 2 });

    const versions = store.syncArms(changed, true);
    expect(versions.map((v) => [v.name, v.version])).toEqual([
      ["full", 1],
      ["lean", 2],
    ]);
    store.plan(keys("lean", 2));
    const all = store.db
      .prepare<[], { arm_version: number }>("SELECT arm_version FROM attempts WHERE arm = 'lean'")
      .all();
    expect(all.length).toBe(4); // version 1 had no lean attempts planned here; version 2's four
    expect(store.attempts(versions).filter((r) => r.arm === "full")).toHaveLength(4); // kept
    store.close();
  });

  it("keeps the version of an arm a store recorded before RunSpec (the fields' own hash), and re-hashes it", async () => {
    const dir = tempDir();
    let store = await AttemptStore.open(dir, "exp");
    const full = arm("full", "full");
    // What a store written before RunSpec holds: the hash of the file's fields alone.
    store.syncArms([{ name: "full", fields: full.fields, hash: legacyArmHash(full.fields) }], false);
    store.close();
    store = await AttemptStore.open(dir, "exp");
    expect(store.syncArms([full], false)).toEqual([{ name: "full", version: 1, hash: full.hash }]);
    expect(store.db.prepare("SELECT hash FROM arms WHERE name = 'full'").get()).toEqual({ hash: full.hash });
    // Changed fields are still a changed arm.
    expect(() => store.syncArms([arm("full", "shell-only")], false)).toThrow(StoreRefused);
    store.close();
  });

  it("refuses a database of an older or newer schema version, saying what to do, and leaves it as it was", async () => {
    for (const [version, says] of [
      [0, /older acilab \(schema version 0; this acilab reads version 1\).*another --out/],
      [SCHEMA_VERSION + 1, /newer acilab .*upgrade acilab/],
    ] as const) {
      const dir = tempDir();
      const file = join(dir, DB_FILE);
      const old = new Database(file);
      old.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      old.prepare("INSERT INTO meta VALUES ('schema_version', ?)").run(String(version));
      old.close();
      const before = sha(file);
      await expect(AttemptStore.open(dir, "exp")).rejects.toThrow(says);
      expect(sha(file)).toBe(before);
      // Refused, not locked up: the same process may open another database at once.
      (await AttemptStore.open(tempDir(), "exp")).close();
    }
  });

  it("refuses a database a live run in another process holds, and takes it over once that run is killed", async () => {
    const dir = tempDir();
    const holder = await holderProcess(dir);
    await expect(AttemptStore.open(dir, "exp")).rejects.toThrow(
      /held by another "acilab experiment run" \(owner \d+-\d+-[0-9a-f]{8}, alive\)/,
    );
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    const store = await AttemptStore.open(dir, "exp");
    expect(store.tookOver).toMatch(/took over .* from a run that is gone \(owner .*, dead\)/);
    store.close();
  });

  it("refuses a holder it cannot check while it beats, and takes over once it has been silent", async () => {
    const dir = tempDir();
    (await AttemptStore.open(dir, "exp")).close();
    const db = new Database(join(dir, DB_FILE));
    // A well-formed token with no marker here: a run in another container, alive or not.
    const hold = (at: number) => {
      db.prepare("INSERT OR REPLACE INTO meta VALUES ('holder', '999999-0-0badf00d')").run();
      db.prepare("INSERT OR REPLACE INTO meta VALUES ('heartbeat_at', ?)").run(new Date(at).toISOString());
    };
    hold(Date.now());
    await expect(AttemptStore.open(dir, "exp")).rejects.toThrow(/cannot check .*Nothing was changed/);
    hold(Date.now() - 2 * STALE_MS);
    const store = await AttemptStore.open(dir, "exp");
    expect(store.tookOver).toMatch(/cannot be checked from here and has been silent for \d+ minutes/);
    store.close();
    db.close();
  });

  it("refuses a second open of one database in the same process", async () => {
    const dir = tempDir();
    const store = await AttemptStore.open(dir, "exp");
    await expect(AttemptStore.open(dir, "exp")).rejects.toThrow(/already open in this process/);
    store.close();
    (await AttemptStore.open(dir, "exp")).close();
  });
});
