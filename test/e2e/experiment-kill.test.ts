/**
 * `kill -9` in the middle of `acilab experiment run`, then the same run again: every attempt ends
 * done exactly once — the finished ones are not rerun, the one in flight is, no row is duplicated or
 * lost. The CLI runs from source (tsx) as a child; the test watches its database from outside.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { spawnCliFromSource } from "../../src/cli/testing.js";
import { type AttemptRow, DB_FILE, loadExperiment, runExperiment } from "../../src/experiment/index.js";
import { EVENTUALLY, HANG_GUARD_MS } from "../../src/testing/time.js";

const cleanup: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * One at a time, median-even first: lru-recency's run and grading take seconds, so there is a moment
 * with one attempt done and the other running — where the kill lands.
 */
const FILE = `name: kill
base: { policy: scripted }
arms: { full: { tools: full } }
tasks: [median-even, lru-recency]
repeats: 1
workers: 1
`;

function rows(dir: string): AttemptRow[] {
  const db = new Database(join(dir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], AttemptRow>("SELECT * FROM attempts ORDER BY id").all();
  } finally {
    db.close();
  }
}

describe("experiment run under kill -9", () => {
  it("resumes: finished attempts kept as they were, the one in flight run again, every attempt done once", async () => {
    const root = mkdtempSync(join(tmpdir(), "acilab-expkill-"));
    cleanup.push(root);
    const file = join(root, "kill.yaml");
    const dir = join(root, "out");
    writeFileSync(file, FILE);
    const child = spawnCliFromSource(
      ["experiment", "run", file, "--out", dir],
      ["ignore", "ignore", "inherit"],
    );
    children.push(child);
    const exited = new Promise((r) => child.once("exit", r));

    await vi.waitFor(
      () => {
        const now = rows(dir);
        const done = now.filter((r) => r.status === "done").length;
        const running = now.filter((r) => r.status === "running").length;
        if (done < 1 || running < 1) throw new Error(`not yet: ${done} done, ${running} running`);
      },
      { ...EVENTUALLY, timeout: 2 * HANG_GUARD_MS }, // starting the CLI and a first attempt: seconds, normally
    );
    child.kill("SIGKILL");
    await exited;
    // What the kill left: some attempts done, one mid-attempt (as a crash would leave it).
    const before = rows(dir);
    const killedIn = before.filter((r) => r.status === "running");
    expect(before.some((r) => r.status === "done")).toBe(true);
    expect(killedIn.length).toBeLessThanOrEqual(1);

    const run = await runExperiment(loadExperiment(file), { dir });
    expect(run.tookOver).toMatch(/from a run that is gone \(owner .*, dead\)/);
    expect(run.requeued).toBe(killedIn.length);
    const after = rows(dir);
    expect(after).toHaveLength(2);
    expect(new Set(after.map((r) => `${r.task}#${r.repeat}`)).size).toBe(2);
    expect(after.map((r) => r.status)).toEqual(["done", "done"]);
    for (const r of after) {
      const was = before.find((b) => b.id === r.id);
      if (was?.status === "done")
        expect(r).toEqual(was); // not rerun: the row is untouched
      else if (r.id === killedIn[0]?.id) expect(r.runs).toBe(2);
      else expect(r.runs).toBe(1);
    }
  });
});
