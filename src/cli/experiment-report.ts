/**
 * `acilab experiment report DIR`: the analysis of DIR/experiment.db as Markdown (default), JSON, or
 * one self-contained HTML page with plots and the trajectory inspector.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeExperiment, DB_FILE, readExperimentDir, StoreRefused } from "../experiment/index.js";
import {
  experimentPlots,
  experimentReportHtml,
  finiteOrNull,
  PlotsNotWritten,
  reportLatex,
  reportMarkdown,
  writePlotFiles,
} from "../report/index.js";
import { choiceOption, UsageError } from "./args.js";
import { EXPERIMENT_REPORT_HELP, EXPERIMENT_REPORT_OPTIONS } from "./experiment-options.js";
import { parseOptions } from "./options.js";

type Out = (line: string) => void;

const FORMATS = ["md", "json", "html", "latex"] as const;

export async function experimentReportCommand(argv: string[], out: Out, err: Out): Promise<number> {
  const { values, positionals } = parseOptions("experiment report", argv, EXPERIMENT_REPORT_OPTIONS);
  if (values.help) {
    out(EXPERIMENT_REPORT_HELP);
    return 0;
  }
  const dir = positionals[0];
  if (dir === undefined || positionals.length > 1)
    throw new UsageError("report takes one DIR, the --out of an experiment run", "experiment report");
  const format = choiceOption(values.format ?? "md", FORMATS, "format", "experiment report");
  let text: string;
  let plotsNote: string | undefined;
  try {
    const input = readExperimentDir(dir, values.baseline);
    const analysis = analyzeExperiment(input);
    if (values.baseline && !input.arms.some((a) => a.name === values.baseline))
      throw new UsageError(
        `--baseline "${values.baseline}" is not an arm of ${dir} — its arms are ${[...new Set(input.arms.map((a) => a.name))].join(", ")}`,
        "experiment report",
      );
    const source = `${join(dir, DB_FILE)} · baseline ${analysis.baseline} (${input.baselineFrom})`;
    text =
      format === "json"
        ? JSON.stringify({ baseline_from: input.baselineFrom, ...analysis }, finiteOrNull, 2)
        : format === "html"
          ? await experimentReportHtml(dir, input, analysis, source)
          : format === "latex"
            ? reportLatex(analysis)
            : reportMarkdown(analysis, source);
    if (values.plots !== undefined) {
      const written = await writePlotFiles(experimentPlots(analysis, input.attempts), values.plots);
      plotsNote = `wrote ${written.length} plot(s) to ${values.plots}: ${written.map((w) => w.id).join(", ")} (.svg and .csv each)`;
    }
  } catch (e) {
    if (!(e instanceof StoreRefused) && !(e instanceof PlotsNotWritten)) throw e;
    err(`acilab experiment report: ${e.message}`);
    return 1;
  }
  // A page is not for a terminal: without --out it goes beside the store.
  const file = values.out ?? (format === "html" ? join(dir, "report.html") : undefined);
  if (file) {
    writeFileSync(file, text.endsWith("\n") ? text : `${text}\n`);
    out(
      `wrote ${file}${format === "html" ? ` (${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB; open it in a browser, it needs no network)` : ""}`,
    );
  } else out(text);
  // Beside a report on stdout the note goes to stderr, so the report stays what stdout holds.
  if (plotsNote) (file ? out : err)(plotsNote);
  return 0;
}
