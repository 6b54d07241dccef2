/**
 * runExperiment on real runs: the Acme tool task and built-in coding tasks under their scripted
 * policies (each a second or so), a real SQLite store in a temporary folder.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runCli } from "../../src/cli/testing.js";
import { checkExperiment, type LoadedExperiment, loadExperiment } from "../../src/experiment/load.js";
import { attemptDir, runExperiment } from "../../src/experiment/run.js";
import { DB_FILE } from "../../src/experiment/store.js";
import { builtinCatalog, type TaskRef } from "../../src/experiment/tasks.js";
import { builtinTasksDir } from "../../src/tasks/index.js";
import { EVENTUALLY } from "../../src/testing/time.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "acilab-exprun-"));
  dirs.push(dir);
  return dir;
}

/** The built-in median-even exported as an instance (DIR/exported/one.jsonl) with these setup_commands. */
async function exportedMedianEven(dir: string, setup: string[]) {
  const exported = join(dir, "exported");
  expect((await runCli(["tasks", "export", "--out", join(exported, "all.jsonl")])).code).toBe(0);
  const line = readFileSync(join(exported, "all.jsonl"), "utf8")
    .split("\n")
    .find((l) => l.includes('"instance_id":"median-even"'));
  const instance = { ...JSON.parse(line ?? "{}"), setup_commands: setup };
  writeFileSync(join(exported, "one.jsonl"), `${JSON.stringify(instance)}\n`);
  return { exported, instance };
}

function experiment(text: string, catalog: readonly TaskRef[] = builtinCatalog()): LoadedExperiment {
  return checkExperiment("exp.yaml", join(tmpdir(), "exp.yaml"), text, catalog);
}

const TWO_ARMS = `name: two
base: { policy: scripted }
arms:
  json: { action_format: json }
  json-capped: { action_format: json, max_steps: 30 }
tasks: [acme, median-even]
repeats: 2
workers: 2
`;

function rowCount(dir: string): number {
  const db = new Database(join(dir, DB_FILE), { readonly: true });
  const { n } = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM attempts").get() ?? { n: -1 };
  db.close();
  return n;
}

describe("runExperiment", () => {
  it("runs arms × tasks × repeats through the run contract and records each attempt's result", async () => {
    const dir = tempDir();
    const seen: string[] = [];
    const run = await runExperiment(experiment(TWO_ARMS), {
      dir,
      onAttempt: (e) => seen.push(`${e.finished}/${e.total} ${e.row.arm} ${e.row.task} #${e.row.repeat}`),
    });
    expect(run.rows).toHaveLength(8);
    expect(seen).toHaveLength(8);
    expect(seen.at(-1)).toMatch(/^8\/8 /);
    expect(run.interrupted).toBe(false);
    for (const row of run.rows) {
      expect(row).toMatchObject({ status: "done", resolved: true, stop_reason: "submitted", runs: 1 });
      expect(existsSync(join(dir, row.trajectory as string))).toBe(true);
      expect(row.tokens_in).toBeGreaterThan(0);
    }
    const coding = run.rows.find((r) => r.task === "median-even");
    expect(coding?.trajectory).toBe("attempts/json/median-even/1/trajectory.jsonl");
    expect(coding?.patch).toBe("attempts/json/median-even/1/patch.diff");
    expect(coding?.report).toBe("attempts/json/median-even/1/report.json");
    // The reference script explores (grep, view) and reproduces in a test file before it edits the source.
    expect(coding?.first_edit_step).toBeGreaterThan(1);
    expect(run.rows.find((r) => r.task === "acme")?.first_edit_step).toBeNull();
    // The report compares against the baseline the run recorded, whatever the file says later.
    const db = new Database(join(dir, DB_FILE), { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'baseline'").get()).toEqual({ value: "json" });
    db.close();
  });

  it("resumes an interrupted run: finished attempts are kept, the rest run once, no row is duplicated", async () => {
    const dir = tempDir();
    const loaded = experiment(TWO_ARMS);
    const controller = new AbortController();
    const first = await runExperiment(loaded, {
      dir,
      workers: 1,
      signal: controller.signal,
      onAttempt: (e) => {
        if (e.finished === 3) controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    const done = first.rows.filter((r) => r.status === "done");
    expect(done).toHaveLength(3);
    expect(first.rows.filter((r) => r.status === "pending")).toHaveLength(5);
    expect(first.rows.some((r) => r.status === "running")).toBe(false);

    const second = await runExperiment(loaded, { dir });
    expect(second.rows.map((r) => r.status)).toEqual(Array(8).fill("done"));
    // Started once each: the three finished before the interrupt were not run again.
    expect(second.rows.map((r) => r.runs)).toEqual(Array(8).fill(1));
    for (const r of done) expect(second.rows.find((s) => s.id === r.id)?.finished_at).toBe(r.finished_at);
    expect(rowCount(dir)).toBe(8);
  });

  it("on an interrupt, aborts the attempts in flight and puts them back to pending; the next run does them", async () => {
    const dir = tempDir();
    const loaded = experiment(`name: cut
base: { policy: scripted }
arms: { a: {} }
tasks: [median-even]
repeats: 2
`);
    const controller = new AbortController();
    const running = runExperiment(loaded, { dir, workers: 1, signal: controller.signal });
    // Interrupt while the first attempt runs, seen from outside through the database.
    await vi.waitFor(() => {
      const db = new Database(join(dir, DB_FILE), { readonly: true, fileMustExist: true });
      const row = db.prepare("SELECT 1 FROM attempts WHERE status = 'running'").get();
      db.close();
      if (!row) throw new Error("no attempt running yet");
    }, EVENTUALLY);
    controller.abort();
    const first = await running;
    expect(first.interrupted).toBe(true);
    expect(first.rows.map((r) => [r.status, r.runs])).toEqual([
      ["pending", 1],
      ["pending", 0],
    ]);
    const second = await runExperiment(loaded, { dir });
    expect(second.rows.map((r) => [r.status, r.runs])).toEqual([
      ["done", 2],
      ["done", 1],
    ]);
  });

  it("records a coding task with no script for the arm's tool set as no_script, not a failure", async () => {
    const dir = tempDir();
    const run = await runExperiment(
      experiment(`name: ns
base: { policy: scripted }
arms:
  no-search: { tools: no-search }
  shell-only: { tools: shell-only }
tasks: [median-even]
`),
      { dir },
    );
    const [noSearch, shellOnly] = run.rows;
    expect(noSearch).toMatchObject({ status: "no_script", resolved: null });
    expect(noSearch?.error).toMatch(
      /^no scripted policy for this arm: task "median-even" has no script.no-search.json, and its script.json calls grep/,
    );
    // shell-only has its own script.shell-only.json: it runs.
    expect(shellOnly).toMatchObject({ status: "done", resolved: true });
  });

  it("records a scripted coding task in the code action format as no_script: its scripts are JSON calls", async () => {
    const dir = tempDir();
    const run = await runExperiment(
      experiment(`name: code
base: { policy: scripted, action_format: code }
arms: { code: {} }
tasks: [median-even]
`),
      { dir },
    );
    expect(run.rows[0]).toMatchObject({ status: "no_script", resolved: null });
    expect(run.rows[0]?.error).toMatch(/reference scripts are JSON tool calls, not programs/);
  });

  it("records a harness exception as error with its message and goes on with the other attempts", async () => {
    const dir = tempDir();
    // A coding task whose instances file has gone since the plan was made: an error, with why.
    const catalog = [
      ...builtinCatalog(),
      { kind: "coding" as const, id: "exported-1", source: "/nowhere/instances.jsonl" },
    ];
    const run = await runExperiment(
      experiment(
        `name: err
base: { policy: scripted }
arms: { json: {} }
tasks: [exported-1, acme]
`,
        catalog,
      ),
      { dir },
    );
    expect(run.rows[0]).toMatchObject({ task: "exported-1", status: "error" });
    expect(run.rows[0]?.error).toContain("/nowhere/instances.jsonl");
    expect(run.rows[1]).toMatchObject({ task: "acme", status: "done", resolved: true });
  });

  it("runs a coding task from an instances file: its repository, tests and setup as the file says", async () => {
    const dir = tempDir();
    // One instance of the export, with a setup line the agent's sandbox and the grader both run.
    const { exported, instance } = await exportedMedianEven(dir, ["echo ready > .setup-ran"]);
    const script = join(builtinTasksDir(), "median-even", "script.json");
    // The agent looks for what setup wrote, then gives up: it must find it (setup ran in its sandbox).
    const look = join(exported, "look.json");
    writeFileSync(
      look,
      JSON.stringify({
        turns: [
          { tool: "view", input: { path: ".setup-ran" } },
          { tool: "submit", input: {} },
        ],
      }),
    );
    writeFileSync(
      join(exported, "e.yaml"),
      `name: inst
arms:
  plain: { policy: scripted }
  replayed: { policy: "scripted:${script}" }
  look: { policy: "scripted:${look}" }
tasks: [{ instances: one.jsonl }]
`,
    );
    const run = await runExperiment(loadExperiment(join(exported, "e.yaml")), { dir: join(dir, "out") });
    const [plain, replayed, looked] = run.rows;
    // An instance has no reference script: plain scripted is its own status, never a failure.
    expect(plain).toMatchObject({ task: "median-even", status: "no_script" });
    expect(plain?.error).toMatch(/comes from the instances file .*one\.jsonl and has no reference script/);
    expect(replayed).toMatchObject({ task: "median-even", status: "done", resolved: true });
    const folder = join(dir, "out", replayed?.trajectory ?? "", "..");
    const report = JSON.parse(readFileSync(join(folder, "report.json"), "utf8"));
    expect(report["median-even"].tests_status.FAIL_TO_PASS.success).toEqual(instance.FAIL_TO_PASS);
    // The setup line ran where the agent worked: the patch is the script's edit and nothing else.
    expect(readFileSync(join(folder, "patch.diff"), "utf8")).not.toContain(".setup-ran");
    const view = readFileSync(join(dir, "out", looked?.trajectory ?? ""), "utf8");
    expect(view).toMatch(/"observation":"[^"]*ready/);
    // Submitting nothing but what setup wrote is submitting nothing: SWE-bench's empty patch.
    expect(looked).toMatchObject({ status: "done", resolved: false });
    expect(readFileSync(join(dir, "out", looked?.patch ?? "patch.diff"), "utf8")).toBe("");
  });

  it("keeps setup's change to a file the agent also edits in the patch, and says so in the grade", async () => {
    const dir = tempDir();
    // Setup appends to the very file the reference script fixes.
    const { exported } = await exportedMedianEven(dir, [
      "printf '\\n# added by setup\\n' >> textstats/core.py",
    ]);
    const script = join(builtinTasksDir(), "median-even", "script.json");
    writeFileSync(
      join(exported, "e.yaml"),
      `name: overlap\narms: { replayed: { policy: "scripted:${script}" } }\ntasks: [{ instances: one.jsonl }]\n`,
    );
    const run = await runExperiment(loadExperiment(join(exported, "e.yaml")), { dir: join(dir, "out") });
    const row = run.rows[0];
    expect(row?.status).toBe("done");
    const folder = join(dir, "out", row?.trajectory ?? "", "..");
    const result = JSON.parse(readFileSync(join(folder, "result.json"), "utf8"));
    expect(result.grade.detail).toContain("the patch also carries setup's own changes to textstats/core.py");
  });

  it("refuses a rerun whose arm changed, and --new-arm-version runs the changed arm as version 2 beside the old", async () => {
    const dir = tempDir();
    const file = (history: string) => `name: v
base: { policy: scripted }
arms:
  a: { history: "${history}" }
tasks: [acme]
`;
    await runExperiment(experiment(file("all")), { dir });
    await expect(runExperiment(experiment(file("last:3")), { dir })).rejects.toThrow(
      /arm "a" changed .*--new-arm-version/,
    );
    const run = await runExperiment(experiment(file("last:3")), { dir, newArmVersion: true });
    expect(run.arms).toMatchObject([{ name: "a", version: 2 }]);
    expect(run.rows).toMatchObject([
      { arm: "a", arm_version: 2, status: "done", trajectory: "attempts/a@2/acme/1/trajectory.jsonl" },
    ]);
    expect(rowCount(dir)).toBe(2); // version 1's attempt is kept
  });
});

describe("attemptDir", () => {
  const dir = (task: string) =>
    attemptDir({ arm: "full", arm_version: 1, task_kind: "coding", task, repeat: 1 });

  it("keeps a plain id as it is and makes any other one safe segment", () => {
    expect(dir("median-even")).toBe(join("attempts", "full", "median-even", "1"));
    for (const id of ["../../etc", "a/b", ".hidden", "x\0y", "org__repo-123"]) {
      const segment = dir(id).split("/")[2] ?? "";
      expect(segment).not.toMatch(/[/\0]|^\./);
    }
  });

  it("never gives two ids one folder", () => {
    const ids = ["a b", "a_20b", "a_b", ".hidden", "_hidden", "hidden", "a%b", "a_25b", "é", "e"];
    expect(new Set(ids.map(dir)).size).toBe(ids.length);
  });
});
