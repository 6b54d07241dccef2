/**
 * A folder run's time per episode, before and after keeping one browser for the folder: the same
 * small task files (MiniWoB-shaped pages: an instruction, a few buttons, a reward) run with a
 * Chromium of their own each (box, proxy and profile started and torn down per episode: before) and
 * with one SharedBrowser giving each a fresh context (after), interleaved own / shared / own so load
 * drifts hit both. Each episode is the real path (runKind → task file stage → loop → grade), its
 * reference script two steps. bench/run.ts prints the rows and the ratio.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserSource, loadTaskFile, SharedBrowser, type TaskFile } from "../src/cua/index.js";
import { actorOf, type CuaRunResult, cuaRun, runKind } from "../src/run/index.js";
import { type BenchRow, summarise } from "./stats.js";

const PAGES = 6;
const SCREEN = { width: 1400, height: 800 };

function pageHtml(i: number): string {
  const buttons = ["Submit", "Okay", "Cancel", "Next", "Previous"]
    .map(
      (b) => `<button onclick="window.REWARD = ${b === "Okay" ? 1 : -1}; window.DONE = true">${b}</button>`,
    )
    .join(" ");
  return `<!doctype html><body style="font:14px sans-serif"><div id="query">Page ${i}: click on the "Okay" button.</div>
<div id="area" style="width:160px">${buttons}</div><script>window.REWARD = 0; window.DONE = false;</script></body>`;
}

function writeTasks(root: string): TaskFile[] {
  mkdirSync(join(root, "site"), { recursive: true });
  const tasks: TaskFile[] = [];
  for (let i = 0; i < PAGES; i++) {
    writeFileSync(join(root, "site", `p${i}.html`), pageHtml(i));
    const file = join(root, `p${i}.yaml`);
    writeFileSync(
      file,
      [
        `id: bench-page-${i}`,
        "instruction_js: document.getElementById('query').textContent",
        "app: { static: ./site }",
        `start: /p${i}.html`,
        "grade: { js: window.REWARD, done_js: window.DONE === true }",
        "script:",
        "  - click: { role: button, name: Okay }",
        "  - done: clicked",
        "",
      ].join("\n"),
    );
    tasks.push(loadTaskFile(file));
  }
  return tasks;
}

async function runAll(tasks: TaskFile[], browsers: BrowserSource | undefined): Promise<CuaRunResult[]> {
  const out: CuaRunResult[] = [];
  for (const task of tasks) {
    const options = { observe: "a11y" as const, screen: SCREEN, ...(browsers ? { browsers } : {}) };
    const result = await runKind(cuaRun(task, options), { actor: actorOf("scripted") });
    if (!result.resolved) throw new Error(`bench cua-folder: ${task.id} did not resolve: ${result.detail}`);
    out.push(result);
  }
  return out;
}

export async function benchCuaFolder(): Promise<{ rows: BenchRow[]; extra: string[] }> {
  const root = mkdtempSync(join(tmpdir(), "acilab-bench-folder-"));
  const shared = new SharedBrowser();
  try {
    const tasks = writeTasks(root);
    const own = [...(await runAll(tasks, undefined))];
    const kept = await runAll(tasks, shared);
    own.push(...(await runAll(tasks, undefined)));
    const ms = (rs: CuaRunResult[], pick: (r: CuaRunResult) => number) => rs.map((r) => pick(r) * 1000);
    // The first shared episode starts the browser; the rest are what a folder run's episodes cost.
    const reused = kept.filter((r) => r.timing.browser_reused);
    const rows = [
      summarise(
        "cua folder: episode, a Chromium of its own (before)",
        ms(own, (r) => r.wall_s),
      ),
      summarise(
        "  part: box + Chromium started",
        ms(own, (r) => r.timing.browser_s),
      ),
      summarise(
        "  part: app, first page, instruction",
        ms(own, (r) => r.timing.open_s),
      ),
      summarise(
        "  part: steps (2)",
        ms(own, (r) => r.timing.loop_s),
      ),
      summarise(
        "  part: grade, browser and app closed",
        ms(own, (r) => r.timing.end_s),
      ),
      summarise(
        "cua folder: episode, one Chromium kept, a fresh context (after)",
        ms(reused, (r) => r.wall_s),
      ),
      summarise(
        "  part: a fresh context",
        ms(reused, (r) => r.timing.browser_s),
      ),
      summarise(
        "  part: app, first page, instruction",
        ms(reused, (r) => r.timing.open_s),
      ),
      summarise(
        "  part: steps (2)",
        ms(reused, (r) => r.timing.loop_s),
      ),
      summarise(
        "  part: grade, context and app closed",
        ms(reused, (r) => r.timing.end_s),
      ),
    ];
    const before = rows[0]?.medianMs ?? 0;
    const after = rows[5]?.medianMs ?? 0;
    const extra = [
      `cua folder: ${PAGES} task files × 3 passes (own, kept, own): ${(before / 1000).toFixed(2)} s → ${(after / 1000).toFixed(2)} s per episode (×${(before / after).toFixed(2)} faster); ${shared.launches} browser start(s) for the kept pass`,
    ];
    return { rows, extra };
  } finally {
    await shared.close();
    rmSync(root, { recursive: true, force: true });
  }
}
