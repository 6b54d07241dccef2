/**
 * The HTML report at the size of seed 003's experiment (7 arms × 28 tasks × 3 repeats = 588 attempts;
 * the built-in suite has 26 tasks),
 * every one inspectable. The attempts are real: a scripted experiment runs once per source task (four
 * built-in coding tasks and one computer-use task, so frames are in the page too), and the 588 rows
 * of a second store point at copies of those run folders, cycling through them. Measured: making the
 * page (`experiment report --format html`), its size, and opening it in Chromium from file:// (to
 * the load event, then to the first picked attempt's turns on screen).
 */
import { cpSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  type AttemptKey,
  AttemptStore,
  analyzeExperiment,
  attemptDir,
  loadExperiment,
  readExperimentDir,
  runExperiment,
} from "../src/experiment/index.js";
import { experimentReportHtml } from "../src/report/index.js";
import { reportBrowser } from "../src/report/testing.js";
import { type BenchRow, summarise } from "./stats.js";

const ARMS = 7;
const TASKS = 28;
const REPEATS = 3;
const OPEN_TARGET_MS = 2_000;
const OPEN_SAMPLES = 5;
const SOURCE_TASKS = ["median-even", "compact-fractions", "iso-weeks", "lru-recency", "report-csv"];

/** The real attempts every synthetic row copies: one scripted run per source task. */
async function sourceRuns(root: string) {
  const file = join(root, "source.yaml");
  writeFileSync(
    file,
    `name: source\narms: [{ name: full, policy: scripted, tools: full }]\ntasks: [${SOURCE_TASKS.join(", ")}]\nrepeats: 1\nworkers: 2\n`,
  );
  const dir = join(root, "source");
  const run = await runExperiment(loadExperiment(file), { dir, workers: 2 });
  if (run.rows.some((r) => r.status !== "done"))
    throw new Error("bench: a source attempt of the report benchmark did not finish");
  return { dir, rows: run.rows };
}

async function bigStore(root: string): Promise<string> {
  const source = await sourceRuns(root);
  const dir = join(root, "big");
  const store = await AttemptStore.open(dir, "report-bench");
  const names = Array.from({ length: ARMS }, (_, a) => `arm-${a + 1}`);
  const versions = store.syncArms(
    names.map((name) => ({ name, fields: { tools: "full" }, hash: name })),
    false,
  );
  store.recordBaseline(names[0] as string);
  const keys: AttemptKey[] = versions.flatMap((v) =>
    Array.from({ length: TASKS * REPEATS }, (_, i) => {
      const t = Math.floor(i / REPEATS);
      const copy = source.rows[t % source.rows.length];
      return {
        arm: v.name,
        arm_version: v.version,
        task_kind: copy?.task_kind ?? "coding",
        task: `${copy?.task}-${t}`,
        repeat: (i % REPEATS) + 1,
      };
    }),
  );
  store.plan(keys);
  for (const row of store.attempts(versions)) {
    const t = Number(/-(\d+)$/.exec(row.task)?.[1]);
    const copy = source.rows[t % source.rows.length];
    if (!copy) throw new Error("bench: no source attempt to copy");
    const folder = attemptDir(row);
    cpSync(join(source.dir, attemptDir(copy)), join(dir, folder), { recursive: true });
    store.markDone(row.id, {
      resolved: copy.resolved === true,
      stop_reason: copy.stop_reason ?? "submitted",
      steps: copy.steps ?? 0,
      tokens_in: copy.tokens_in ?? 0,
      tokens_out: copy.tokens_out ?? 0,
      cache_read: copy.cache_read ?? 0,
      cache_write: copy.cache_write ?? 0,
      cost_usd: copy.cost_usd ?? 0,
      wall_s: copy.wall_s ?? 0,
      first_edit_step: copy.first_edit_step,
      failure_class: copy.failure_class,
      trajectory: join(folder, "trajectory.jsonl"),
      patch: copy.patch ? join(folder, "patch.diff") : null,
      report: copy.report ? join(folder, "report.json") : null,
    });
  }
  store.close();
  return dir;
}

export async function benchReport(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), "acilab-bench-report-"));
  try {
    const dir = await bigStore(root);
    const started = performance.now();
    const input = readExperimentDir(dir);
    const html = await experimentReportHtml(dir, input, analyzeExperiment(input), "bench");
    const makeMs = performance.now() - started;
    const file = join(root, "report.html");
    writeFileSync(file, html);
    const mb = statSync(file).size / 1e6;
    const browser = await reportBrowser();
    const opens: number[] = [];
    const firstTurns: number[] = [];
    try {
      for (let i = 0; i < OPEN_SAMPLES; i++) {
        const { page, loadMs, problems } = await browser.open(file);
        opens.push(loadMs);
        const clicked = performance.now();
        await page
          .locator("#attempt-list tr[data-key]")
          .nth(i * 97)
          .click();
        await page.locator("#inspector .turn").first().waitFor();
        firstTurns.push(performance.now() - clicked);
        if (problems.length > 0)
          throw new Error(`bench: the report page is not clean: ${problems.join("; ")}`);
        await page.close();
      }
    } finally {
      await browser.close();
    }
    const size = `${ARMS} arms × ${TASKS} tasks × ${REPEATS} repeats, ${input.attempts.length} attempts, ${mb.toFixed(1)} MB`;
    return [
      summarise(`report: HTML made (${size})`, [makeMs]),
      summarise(`report: opens in Chromium from file:// (${mb.toFixed(1)} MB)`, opens, OPEN_TARGET_MS),
      summarise("report: a picked attempt's turns on screen", firstTurns),
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
