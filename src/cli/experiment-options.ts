/** The options and help of `acilab experiment` and its subcommands (experiment-command.ts, experiment-run.ts). */

import { optionLines } from "./options.js";
import { QUEUE_OPTIONS } from "./shared-options.js";

export const EXPERIMENT_HELP = `acilab experiment — compare arms (tool sets, policies, history, resolutions …) over tasks

Usage: acilab experiment init [FILE] [--force]
       acilab experiment validate FILE [--json]
       acilab experiment run FILE [--out <dir>] [--workers N] [--new-arm-version]
       acilab experiment report DIR [--format md|json|html] [--out FILE] [--baseline ARM]

  init       write a commented example experiment file (default experiment.yaml)
  validate   check an experiment file and print the plan: arms, tasks, attempts, baseline
  run        run the plan into a resumable store (DIR/experiment.db) and print each arm's resolve rate
  report     the statistics of DIR/experiment.db: resolve rates, McNemar vs baseline, failures, per task;
             --format html adds plots and a trajectory inspector in one offline file

Run "acilab experiment <subcommand> --help" for its options. The file format: docs/experiments.md.`;

export const EXPERIMENT_INIT_OPTIONS = {
  force: { type: "boolean", help: "overwrite FILE if it exists" },
} as const;

export const EXPERIMENT_INIT_HELP = `acilab experiment init — write an example experiment file

Usage: acilab experiment init [FILE] [--force]

Options:
${optionLines(EXPERIMENT_INIT_OPTIONS)}

Writes FILE (default experiment.yaml): two tool-set arms over a few built-in tasks, every field
explained in a comment. It validates as written; "acilab experiment validate FILE" shows its plan.`;

export const EXPERIMENT_VALIDATE_OPTIONS = {
  json: { type: "boolean", help: "print the plan (or the problems) as one JSON object" },
} as const;

export const EXPERIMENT_VALIDATE_HELP = `acilab experiment validate — check an experiment file and print its plan

Usage: acilab experiment validate FILE [--json]

Options:
${optionLines(EXPERIMENT_VALIDATE_OPTIONS)}

Prints each arm with its fields (base merged under the arm's own) and hash, the tasks by kind, the
attempts (arms × tasks × repeats) and the baseline. A file with problems prints every one as
FILE:LINE:COLUMN: FIELD: what is wrong and what to write, and exits 1.`;

export const EXPERIMENT_RUN_OPTIONS = {
  out: {
    type: "string",
    value: "<dir>",
    help: "the experiment's folder: experiment.db and attempts/; a rerun resumes it",
    defaultHelp: "runs/experiment-<name>",
  },
  workers: { type: "string", value: "<n>", help: "attempts at once", defaultHelp: "the file's workers" },
  "new-arm-version": {
    type: "boolean",
    help: "run an arm whose definition changed since --out recorded it as a new version (old attempts kept)",
  },
  ...QUEUE_OPTIONS,
} as const;

export const EXPERIMENT_RUN_HELP = `acilab experiment run — run every arm on every task, repeats times, into a resumable store

Usage: acilab experiment run FILE [--out <dir>] [--workers N] [--new-arm-version]
                             [--redis URL [--queue NAME] [--bundles DIR] [--bundle-cap-mb MB]]

Options:
${optionLines(EXPERIMENT_RUN_OPTIONS)}

Each attempt is run and graded the way "acilab run" and "acilab cua" do it, and recorded in
DIR/experiment.db (SQLite); its files go to DIR/attempts/<arm>/<task>/<repeat>/. Kill it at any
moment and run the same command again: finished attempts are kept, the ones in flight run again.
Ctrl-C stops cleanly (exit 130). Under a scripted policy, a coding task with no reference script for
an arm's tool set is recorded as "no scripted policy for this arm", not as a failure.

With --redis, the attempts are jobs on that Redis and "acilab worker"s run them (docs/scale.md);
this command writes the same store, folders and tables as a local run. Killed and started again,
it collects what the workers finished meanwhile; --workers does not apply (the workers' own
--concurrency does).`;

export const EXPERIMENT_REPORT_OPTIONS = {
  format: {
    type: "string",
    value: "<md|json|html|latex>",
    help: "Markdown tables, the analysis as JSON, one self-contained HTML page with plots and the inspector, or the arms table as a LaTeX booktabs table",
    defaultHelp: "md",
  },
  out: {
    type: "string",
    value: "<file>",
    help: "write the report to FILE",
    defaultHelp: "stdout; DIR/report.html for html",
  },
  plots: {
    type: "string",
    value: "<dir>",
    help: "also write each plot as DIR/<plot>.svg and its numbers as DIR/<plot>.csv",
  },
  baseline: {
    type: "string",
    value: "<arm>",
    help: "compare the arms with this one",
    defaultHelp: "the baseline the run recorded",
  },
} as const;

export const EXPERIMENT_REPORT_HELP = `acilab experiment report — the statistics of an experiment's store

Usage: acilab experiment report DIR [--format md|json|html|latex] [--out FILE] [--plots DIR]
                                [--baseline ARM]

Options:
${optionLines(EXPERIMENT_REPORT_OPTIONS)}

Reads DIR/experiment.db (read-only; a run may be writing it) and each graded attempt's trajectory:
per arm version its resolved k/n with the 95 % Wilson interval, the exact McNemar test against the
baseline over matched (task, repeat) pairs, $/resolved, tokens and steps; the failure taxonomy; the
arm × task grid. A missing or truncated trajectory is marked, not fatal. Fields: docs/experiments.md.

Impossible tasks (hidden tests that contradict the task) are left out of every statistic and counted
in their own "resolved impossible (cheating)" column.

The HTML page works offline and fetches nothing: the same tables, four plots (resolve rate with its
interval, tokens per attempt, cost against resolve rate, the arm × task grid; Vega-Lite rendered to
SVG), and every attempt in a trajectory inspector — its turns, each edit as a diff, commands with
their output, the patch, the grading report and, for computer use, the frames. --plots DIR writes
the same plots as SVG files with their data as CSV; --format latex the arms table for a paper.`;

export const INSPECT_OPTIONS = {
  out: {
    type: "string",
    value: "<file>",
    help: "write the page to FILE",
    defaultHelp: "RUN_DIR/inspect.html",
  },
} as const;

export const INSPECT_HELP = `acilab inspect — one run's trajectory as a page you can read

Usage: acilab inspect RUN_DIR [--out FILE]

Options:
${optionLines(INSPECT_OPTIONS)}

RUN_DIR is the --out folder of "acilab run" or "acilab cua" (or an experiment's attempt folder,
DIR/attempts/ARM/TASK/REPEAT). Writes one self-contained HTML file, the inspector of
"acilab experiment report --format html": each turn's thought, action and arguments, observation,
tokens, cost, latency and files changed; the patch as a coloured diff; the grading report's
FAIL_TO_PASS / PASS_TO_PASS statuses; for computer use, the frame after each turn. A damaged
trajectory or result is shown with what is wrong, not refused.`;
