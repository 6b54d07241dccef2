/** `acilab experiment report DIR`: the analysis of DIR/experiment.db as Markdown (default) or JSON. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  analyzeExperiment,
  DB_FILE,
  readExperimentDir,
  reportMarkdown,
  StoreRefused,
} from "../experiment/index.js";
import { UsageError } from "./args.js";
import { EXPERIMENT_REPORT_HELP, EXPERIMENT_REPORT_OPTIONS } from "./experiment-options.js";
import { parseOptions } from "./options.js";

type Out = (line: string) => void;

const FORMATS = ["md", "json"] as const;

/** NaN (a mean of nothing) is not JSON: it is written as null. */
const jsonValue = (_key: string, value: unknown) =>
  typeof value === "number" && !Number.isFinite(value) ? null : value;

export function experimentReportCommand(argv: string[], out: Out, err: Out): number {
  const { values, positionals } = parseOptions("experiment report", argv, EXPERIMENT_REPORT_OPTIONS);
  if (values.help) {
    out(EXPERIMENT_REPORT_HELP);
    return 0;
  }
  const dir = positionals[0];
  if (dir === undefined || positionals.length > 1)
    throw new UsageError("report takes one DIR, the --out of an experiment run", "experiment report");
  const format = values.format ?? "md";
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be md or json, got "${format}"`, "experiment report");
  let text: string;
  try {
    const input = readExperimentDir(dir, values.baseline);
    const analysis = analyzeExperiment(input);
    if (values.baseline && !input.arms.some((a) => a.name === values.baseline))
      throw new UsageError(
        `--baseline "${values.baseline}" is not an arm of ${dir} — its arms are ${[...new Set(input.arms.map((a) => a.name))].join(", ")}`,
        "experiment report",
      );
    text =
      format === "json"
        ? JSON.stringify({ baseline_from: input.baselineFrom, ...analysis }, jsonValue, 2)
        : reportMarkdown(
            analysis,
            `${join(dir, DB_FILE)} · baseline ${analysis.baseline} (${input.baselineFrom})`,
          );
  } catch (e) {
    if (!(e instanceof StoreRefused)) throw e;
    err(`acilab experiment report: ${e.message}`);
    return 1;
  }
  if (values.out) {
    writeFileSync(values.out, text.endsWith("\n") ? text : `${text}\n`);
    out(`wrote ${values.out}`);
  } else out(text);
  return 0;
}
