import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AttemptOutcome, AttemptStore, DB_FILE } from "../experiment/index.js";
import { SCRIPTED_NOTE } from "../report/index.js";
import { wilson } from "../stats/index.js";
import { runCli } from "./testing.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-experiment-report-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli(argv);

const line = (record: object) => `${JSON.stringify(record)}\n`;
const START = line({ type: "run_start", policy: "scripted:/tasks/t/script.json", task: "t" });
const TESTS = line({
  type: "turn",
  step: 1,
  actions: [
    {
      call: { id: "1", name: "run_tests", input: {} },
      observation: "",
      error: null,
      duration_ms: 1,
      files_changed: [],
    },
  ],
});
const END = line({ type: "run_end", stop_reason: "submitted", steps: 1 });

function outcome(resolved: boolean, trajectory: string): AttemptOutcome {
  return {
    resolved,
    stop_reason: "submitted",
    steps: 3,
    tokens_in: 500,
    tokens_out: 50,
    cache_read: 0,
    cache_write: 0,
    cost_usd: 0,
    wall_s: 1,
    first_edit_step: 2,
    failure_class: resolved ? null : "wrong_fix",
    trajectory,
    patch: null,
    report: null,
  };
}

/**
 * A store as a run leaves it: arms full (baseline) and lean on tasks a and b, 1 repeat; lean's
 * attempt on b has a torn trajectory, its attempt on a none at all, full's b is no_script.
 */
async function fixture(): Promise<void> {
  const store = await AttemptStore.open(dir, "fixture");
  const arms = store.syncArms(
    [
      { name: "full", fields: { policy: "scripted", tools: "full" }, hash: "h-full" },
      { name: "lean", fields: { policy: "scripted", tools: "shell-only" }, hash: "h-lean" },
    ],
    false,
  );
  store.recordBaseline("full");
  store.plan(
    arms.flatMap((arm) =>
      ["a", "b"].map((task) => ({ arm: arm.name, arm_version: 1, task_kind: "coding", task, repeat: 1 })),
    ),
  );
  const write = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  for (const row of store.attempts(arms)) {
    const rel = `attempts/${row.arm}/${row.task}/1/trajectory.jsonl`;
    if (row.arm === "full" && row.task === "a") {
      write(rel, START + TESTS + END);
      store.markDone(row.id, outcome(true, rel));
    } else if (row.arm === "full") store.markUnrun(row.id, "no_script", "no scripted policy for this arm");
    else if (row.task === "a")
      store.markDone(row.id, outcome(false, rel)); // its file never written
    else {
      write(rel, `${START}${TESTS}{"type":"tu`); // killed mid-line
      store.markDone(row.id, outcome(false, rel));
    }
  }
  store.close();
}

describe("acilab experiment report", () => {
  it("renders a store whose trajectories are missing or torn, and marks those attempts", async () => {
    await fixture();
    const { code, out } = await cli("experiment", "report", dir);
    expect(code).toBe(0);
    expect(out).toContain(`> **${SCRIPTED_NOTE}.**`);
    expect(out).toContain("baseline full (recorded by the run)");
    // The rate and its interval in one cell; the rest per arm in the detail table.
    expect(out).toMatch(/\| full \(baseline\) \| 1\/1 · 100\.0 % \(20\.7–100\.0\) \|/);
    expect(out).toMatch(/\| lean \| 0\/2 · 0\.0 % \(0\.0–65\.8\) \| p = 1\.00 \(n too small\) \|/);
    expect(out).toMatch(/\| lean \| 0 \/ 0 \/ 1 \/ 0 \| 500 \/ 500 \|/);
    expect(out).toContain("- lean · a #1: trajectory missing");
    expect(out).toContain("- lean · b #1: trajectory truncated");
    expect(out).toMatch(/\| b \| no_script \| 0\/1 \|/);
    expect(out).toContain("too few discordant pairs for any result to be significant");
  });

  it("prints the analysis as JSON, NaN as null, and writes it to --out", async () => {
    await fixture();
    const file = join(dir, "report.json");
    const { code, out } = await cli("experiment", "report", dir, "--format", "json", "--out", file);
    expect(code).toBe(0);
    expect(out).toBe(`wrote ${file}`);
    const json = JSON.parse(readFileSync(file, "utf8"));
    expect(json.baseline).toBe("full");
    expect(json.scripted).toBe(true);
    const lean = json.arms.find((a: { name: string }) => a.name === "lean");
    expect(lean.vs_baseline).toMatchObject({ pairs: 1, table: { both: 0, onlyA: 0, onlyB: 1, neither: 0 } });
    expect(lean.failures.wrong_fix).toBe(2);
    expect(json.attempts.filter((a: { trajectory: string }) => a.trajectory === "truncated")).toHaveLength(1);
    expect(json.arms[0].first_edit_step).toEqual({ n: 1, mean: 2, median: 2 });
    expect(lean.cost_per_resolved).toBeNull();
  });

  it("on a folder that is not an experiment's, says what it is and what to point it at", async () => {
    const empty = await cli("experiment", "report", dir);
    expect(empty.code).toBe(1);
    expect(empty.err).toContain(
      `${dir} has no ${DB_FILE}, so it is not an experiment's folder — give the --out folder of "acilab experiment run" (it holds experiment.db and attempts/), or run "acilab experiment run FILE --out ${dir}" first`,
    );
    const missing = await cli("experiment", "report", join(dir, "nope"));
    expect(missing.err).toContain(`acilab experiment report: there is no folder ${join(dir, "nope")} — give`);
    expect(missing.err).not.toContain("has no");
    // One run's folder (acilab run --out): inspect is the command for it.
    writeFileSync(join(dir, "result.json"), "{}");
    const run = await cli("experiment", "report", dir);
    expect(run.err).toContain(`"acilab inspect ${dir}" shows a single run`);
    rmSync(join(dir, "result.json"));
    // runs/ rather than runs/experiment-x: the experiments inside are named.
    mkdirSync(join(dir, "experiment-x"));
    writeFileSync(join(dir, "experiment-x", DB_FILE), "");
    const parent = await cli("experiment", "report", dir);
    expect(parent.err).toContain(`holds one: ${join(dir, "experiment-x")} — name that folder`);
  });

  it("refuses a database of another schema version, and leaves it as it was", async () => {
    const store = await AttemptStore.open(dir, "old");
    store.close();
    const db = new Database(join(dir, DB_FILE));
    db.prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    db.close();
    const { code, err } = await cli("experiment", "report", dir);
    expect(code).toBe(1);
    expect(err).toContain("was written by an older acilab (schema version 0");
  });

  it("reports an experiment with no done attempts yet", async () => {
    const store = await AttemptStore.open(dir, "empty");
    const arms = store.syncArms([{ name: "only", fields: {}, hash: "h" }], false);
    store.plan([{ arm: arms[0]?.name ?? "", arm_version: 1, task_kind: "coding", task: "a", repeat: 1 }]);
    store.close();
    const { code, out } = await cli("experiment", "report", dir);
    expect(code).toBe(0);
    expect(out).toMatch(/\| only \(baseline\) \| 0\/0 \(no graded attempt\) \| \(baseline\) \| — \|/);
    expect(out).toMatch(/\| a \| 1 unfinished \|/);
    expect(out).toContain("no attempt is done yet");
    expect(out).not.toContain(SCRIPTED_NOTE);
  });

  it("writes the HTML page beside the store, with the missing and torn trajectories marked", async () => {
    await fixture();
    const r = await cli("experiment", "report", dir, "--format", "html");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`wrote ${join(dir, "report.html")}`);
    const html = readFileSync(join(dir, "report.html"), "utf8");
    expect(html).toContain("Attempts with a damaged trajectory");
    expect(html).toMatch(/<td>wrong_fix, trajectory missing<\/td>/);
    expect(html).toMatch(/<td>wrong_fix, trajectory truncated<\/td>/);
  });

  it("writes each plot as SVG with its numbers as CSV (--plots DIR), and the arms table as LaTeX", async () => {
    await fixture();
    const plots = join(dir, "figures");
    const r = await cli("experiment", "report", dir, "--format", "latex", "--plots", plots);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("\\begin{tabular}");
    expect(r.out).toContain("    full (baseline) & 1/1 & 100.0 (20.7--100.0) & --- & \\$0.0000 \\\\");
    // The note about the files goes to stderr: stdout stays the table.
    expect(r.err).toBe(`wrote 4 plot(s) to ${plots}: resolve-rate, tokens, cost, grid (.svg and .csv each)`);
    for (const id of ["resolve-rate", "tokens", "cost", "grid"]) {
      const svg = readFileSync(join(plots, `${id}.svg`), "utf8");
      expect(svg.startsWith("<svg"), id).toBe(true);
      const csv = readFileSync(join(plots, `${id}.csv`), "utf8").split("\r\n");
      expect(csv.length, id).toBeGreaterThan(2);
    }
    // The numbers drawn: each arm's count with its Wilson interval, as the analysis computes it.
    const [head, ...rows] = readFileSync(join(plots, "resolve-rate.csv"), "utf8").trimEnd().split("\r\n");
    expect(head).toBe("arm,resolved,n,rate,low,high,baseline");
    const lean = wilson(0, 2);
    expect(rows).toEqual([`full,1,1,1,${wilson(1, 1).low},1,true`, `lean,0,2,0,0,${lean.high},false`]);
    expect(readFileSync(join(plots, "grid.csv"), "utf8")).toContain("lean,b,graded,1,0\r\n");
  });

  it("says why --plots cannot write where it was pointed, and inspect on an experiment's folder what to run", async () => {
    await fixture();
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const r = await cli("experiment", "report", dir, "--plots", join(file, "plots"));
    expect([r.code, r.err]).toEqual([
      1,
      `acilab experiment report: --plots ${join(file, "plots")}: cannot write the plots there (a part of that path is a file, not a folder) — give a folder you can write to`,
    ]);
    const inspect = await cli("inspect", dir);
    expect(inspect.code).toBe(1);
    expect(inspect.err).toContain(
      `${dir} is an experiment's folder, not one run's — "acilab experiment report ${dir} --format html" puts every attempt in the inspector`,
    );
  });

  it("refuses an unknown --format and a --baseline that is not an arm", async () => {
    await fixture();
    expect((await cli("experiment", "report", dir, "--format", "xml")).err).toContain(
      '--format must be one of md, json, html, latex, got "xml"',
    );
    expect((await cli("experiment", "report", dir, "--baseline", "nope")).err).toContain(
      '--baseline "nope" is not an arm',
    );
  });
});
