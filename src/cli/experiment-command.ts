/** `acilab experiment init|validate|run|report`: write an example file; check one and print its plan; run it; report it. */
import { writeFileSync } from "node:fs";
import {
  attemptCount,
  EXAMPLE_EXPERIMENT,
  ExperimentError,
  formatProblem,
  type LoadedExperiment,
  loadExperiment,
} from "../experiment/index.js";
import { KIND_NAMES, type TaskKind } from "../run/index.js";
import { UsageError } from "./args.js";
import {
  EXPERIMENT_HELP,
  EXPERIMENT_INIT_HELP,
  EXPERIMENT_INIT_OPTIONS,
  EXPERIMENT_VALIDATE_HELP,
  EXPERIMENT_VALIDATE_OPTIONS,
} from "./experiment-options.js";
import { experimentReportCommand } from "./experiment-report.js";
import { experimentRunCommand } from "./experiment-run.js";
import { table } from "./format.js";
import { HELP_WIDTH, parseOptions, wrap } from "./options.js";

type Out = (line: string) => void;

const DEFAULT_FILE = "experiment.yaml";
/** Enough of an arm's sha256 to tell arms apart on screen; --json prints all of it. */
const SHOWN_HASH = 12;

export async function experimentCommand(argv: string[], out: Out, err: Out): Promise<number> {
  const sub = argv[0];
  if (sub === "init") return initCommand(argv.slice(1), out);
  if (sub === "validate") return validateCommand(argv.slice(1), out, err);
  if (sub === "run") return experimentRunCommand(argv.slice(1), out, err);
  if (sub === "report") return experimentReportCommand(argv.slice(1), out, err);
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
    out(EXPERIMENT_HELP);
    return 0;
  }
  throw new UsageError(`unknown subcommand "${sub}" — use init, validate, run or report`, "experiment");
}

function initCommand(argv: string[], out: Out): number {
  const { values, positionals } = parseOptions("experiment init", argv, EXPERIMENT_INIT_OPTIONS);
  if (values.help) {
    out(EXPERIMENT_INIT_HELP);
    return 0;
  }
  if (positionals.length > 1)
    throw new UsageError(`one FILE at most, got ${positionals.length}`, "experiment init");
  const file = positionals[0] ?? DEFAULT_FILE;
  try {
    // "wx" refuses an existing file in the same call that creates it: no window to lose one.
    writeFileSync(file, EXAMPLE_EXPERIMENT, { flag: values.force ? "w" : "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST")
      throw new Error(`${file} exists — pass --force to overwrite it, or name another file`);
    throw e;
  }
  out(`wrote ${file} — check it with "acilab experiment validate ${file}"`);
  return 0;
}

function validateCommand(argv: string[], out: Out, err: Out): number {
  const { values, positionals } = parseOptions("experiment validate", argv, EXPERIMENT_VALIDATE_OPTIONS);
  if (values.help) {
    out(EXPERIMENT_VALIDATE_HELP);
    return 0;
  }
  const file = positionals[0];
  if (file === undefined || positionals.length > 1)
    throw new UsageError("validate takes one FILE, e.g. experiments/tool-sets.yaml", "experiment validate");
  let loaded: LoadedExperiment;
  try {
    loaded = loadExperiment(file);
  } catch (e) {
    if (!(e instanceof ExperimentError)) throw e;
    if (values.json) out(JSON.stringify({ ok: false, file, problems: e.problems }, null, 2));
    else {
      for (const p of e.problems) err(formatProblem(p));
      err(`${e.problems.length} problem${e.problems.length === 1 ? "" : "s"} in ${file}`);
    }
    return 1;
  }
  out(values.json ? JSON.stringify({ ok: true, ...planJson(loaded) }, null, 2) : formatPlan(loaded, file));
  return 0;
}

function byKind(loaded: LoadedExperiment): Partial<Record<TaskKind, string[]>> {
  const kinds: Partial<Record<TaskKind, string[]>> = {};
  for (const t of loaded.tasks) kinds[t.kind] = [...(kinds[t.kind] ?? []), t.id];
  return kinds;
}

function planJson(loaded: LoadedExperiment) {
  const { experiment } = loaded;
  return {
    ...experiment,
    arms: loaded.arms.map(({ legacyHash: _, ...a }) => ({ ...a, baseline: a.name === experiment.baseline })),
    tasks: loaded.tasks,
    task_counts: Object.fromEntries(Object.entries(byKind(loaded)).map(([k, ids]) => [k, ids.length])),
    attempts: attemptCount(loaded),
  };
}

export function formatPlan(loaded: LoadedExperiment, shown: string): string {
  const { experiment, arms, tasks } = loaded;
  const fields = (a: (typeof arms)[number]) =>
    Object.entries(a.fields)
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : String(v)}`)
      .join(" ") || "(the runs' defaults)";
  const kinds = Object.entries(byKind(loaded)) as [TaskKind, string[]][];
  const taskLines = kinds.flatMap(([kind, ids]) => {
    const head = `  ${KIND_NAMES[kind]} (${ids.length}): `;
    const lines = wrap(ids.join(" "), HELP_WIDTH - head.length, HELP_WIDTH - head.length);
    return lines.map((l, i) => (i === 0 ? head : " ".repeat(head.length)) + l);
  });
  return [
    `experiment ${experiment.name} (${shown})${experiment.description ? `\n  ${experiment.description}` : ""}`,
    "",
    table([
      ["arm", "fields", "hash"],
      ...arms.map((a) => [
        a.name === experiment.baseline ? `${a.name} (baseline)` : a.name,
        fields(a),
        a.hash.slice(0, SHOWN_HASH),
      ]),
    ]),
    "",
    `tasks: ${tasks.length} — ${kinds.map(([k, ids]) => `${ids.length} ${KIND_NAMES[k]}`).join(", ")}`,
    ...taskLines,
    "",
    `attempts: ${arms.length} arm${arms.length === 1 ? "" : "s"} × ${tasks.length} task${tasks.length === 1 ? "" : "s"} × ${experiment.repeats} ${experiment.sampling ? "sample" : "repeat"}${experiment.repeats === 1 ? "" : "s"} = ${attemptCount(loaded)}`,
    ...(experiment.sampling
      ? [
          `selectors: ${experiment.sampling.chains.map((c) => c.spec).join(", ") || "none (pass@k only)"}${experiment.sampling.verifier ? ` · verifier ${experiment.sampling.verifier}` : ""}`,
        ]
      : []),
    `baseline ${experiment.baseline} · workers ${experiment.workers} · seed ${experiment.seed}`,
  ].join("\n");
}
