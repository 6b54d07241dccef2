/**
 * Making the HTML pages: an experiment's report (analysis, plots, every attempt inspectable) and the
 * inspector of one run folder. Reads the store and the run folders, renders the plots, and hands
 * strings to html.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import {
  type Analysis,
  type AnalysisInput,
  type AttemptAnalysis,
  type AttemptRow,
  attemptDir,
  classifyFailure,
  DB_FILE,
} from "../experiment/index.js";
import { experimentHtml, inspectHtml, type PageAssets, type RenderedPlot } from "./html.js";
import { type AttemptCoordinates, type InspectedAttempt, inspectRun } from "./inspect-model.js";
import { emptyRunFiles, type FrameBudget, frameBudget, hasRunFiles, readRunFolder } from "./inspect-read.js";
import { experimentPlots, renderSvg } from "./plots.js";

let assets: PageAssets | undefined;
/** The stylesheet and browser script, beside this module in src/ and in dist/ (scripts/copy-assets.mjs). */
function pageAssets(): PageAssets {
  assets ??= {
    css: readFileSync(new URL("./page.css", import.meta.url), "utf8"),
    script: readFileSync(new URL("./inspector.browser.js", import.meta.url), "utf8"),
  };
  return assets;
}

async function renderPlots(analysis: Analysis, rows: readonly AttemptRow[]): Promise<RenderedPlot[]> {
  const plots: RenderedPlot[] = [];
  for (const plot of experimentPlots(analysis, rows)) {
    let svg: RenderedPlot["svg"];
    try {
      svg = await renderSvg(plot.spec);
    } catch (e) {
      svg = { error: e instanceof Error ? e.message : String(e) };
    }
    plots.push({ id: plot.id, title: plot.title, caption: plot.caption, svg });
  }
  return plots;
}

async function inspectAttempt(
  dir: string,
  row: AttemptRow,
  analysed: AttemptAnalysis | undefined,
  input: AnalysisInput,
  budget: FrameBudget,
): Promise<InspectedAttempt> {
  const at: AttemptCoordinates = {
    key: String(row.id),
    arm: analysed?.arm ?? row.arm,
    task: row.task,
    repeat: row.repeat,
    status: row.status,
    failure: analysed?.failure?.primary ?? null,
    impossible: analysed?.impossible ?? false,
    error:
      row.status === "no_script"
        ? `no scripted policy for this arm: ${row.error ?? "the task has no reference script for its tool set"}`
        : row.status === "error"
          ? `the harness failed on this attempt: ${row.error ?? "no message recorded"}`
          : row.status === "pending" || row.status === "running"
            ? "this attempt has not finished: run the experiment again to complete it"
            : null,
  };
  if (row.status !== "done")
    return inspectRun(at, emptyRunFiles("the attempt never ran to the end, so it left no run to show"));
  const folder = join(dir, attemptDir(row));
  // readExperimentDir read every done attempt's trajectory already (from where the store says it is).
  return inspectRun(at, await readRunFolder(folder, budget, input.trajectories.get(row.id)));
}

/** The HTML report of the experiment in `dir`, from the input its analysis was made of. */
export async function experimentReportHtml(
  dir: string,
  input: AnalysisInput,
  analysis: Analysis,
  source: string,
): Promise<string> {
  const byId = new Map(analysis.attempts.map((a) => [a.id, a]));
  const budget = frameBudget();
  const attempts: InspectedAttempt[] = [];
  for (const row of input.attempts)
    attempts.push(await inspectAttempt(dir, row, byId.get(row.id), input, budget));
  const plots = await renderPlots(analysis, input.attempts);
  return experimentHtml({ analysis, source, plots, attempts }, pageAssets());
}

export class NotARunFolder extends Error {}

/** The inspector page of one `acilab run` / `acilab cua` output folder. */
export async function inspectRunHtml(runDir: string): Promise<string> {
  if (!hasRunFiles(runDir))
    throw new NotARunFolder(
      existsSync(join(runDir, DB_FILE))
        ? `${runDir} is an experiment's folder, not one run's — "acilab experiment report ${runDir} --format html" puts every attempt in the inspector; one attempt alone is ${join(runDir, "attempts", "ARM", "TASK", "REPEAT")}`
        : `${runDir} has neither trajectory.jsonl nor result.json — point inspect at the --out folder of "acilab run" or "acilab cua" (an experiment's attempts are under DIR/attempts/ARM/TASK/REPEAT)`,
    );
  const files = await readRunFolder(runDir, frameBudget());
  const task =
    typeof files.result?.task === "string"
      ? files.result.task
      : (files.records?.find((r) => r.type === "run_start")?.task ?? basename(resolve(runDir)));
  const resolved = files.result?.resolved;
  const failure =
    resolved === false
      ? classifyFailure({
          stopReason: typeof files.result?.stop_reason === "string" ? files.result.stop_reason : null,
          coding: files.result?.kind === "coding",
          records: files.records,
        }).primary
      : null;
  const attempt = inspectRun(
    {
      key: "run",
      arm: null,
      task,
      repeat: null,
      status: files.result ? "done" : "unfinished",
      failure,
      error: null,
    },
    files,
  );
  return inspectHtml(attempt, resolve(runDir), pageAssets());
}
