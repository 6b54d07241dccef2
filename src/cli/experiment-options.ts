/** The options and help of `acilab experiment` and its subcommands (experiment-command.ts, experiment-run.ts). */
import { optionLines } from "./options.js";

export const EXPERIMENT_HELP = `acilab experiment — compare arms (tool sets, policies, history, resolutions …) over tasks

Usage: acilab experiment init [FILE] [--force]
       acilab experiment validate FILE [--json]
       acilab experiment run FILE [--out <dir>] [--workers N] [--new-arm-version]
       acilab experiment report DIR [--format md|json] [--out FILE] [--baseline ARM]

  init       write a commented example experiment file (default experiment.yaml)
  validate   check an experiment file and print the plan: arms, tasks, attempts, baseline
  run        run the plan into a resumable store (DIR/experiment.db) and print each arm's resolve rate
  report     the statistics of DIR/experiment.db: resolve rates, McNemar vs baseline, failures, per task

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
} as const;

export const EXPERIMENT_RUN_HELP = `acilab experiment run — run every arm on every task, repeats times, into a resumable store

Usage: acilab experiment run FILE [--out <dir>] [--workers N] [--new-arm-version]

Options:
${optionLines(EXPERIMENT_RUN_OPTIONS)}

Each attempt is run and graded the way "acilab run" and "acilab cua" do it, and recorded in
DIR/experiment.db (SQLite); its files go to DIR/attempts/<arm>/<task>/<repeat>/. Kill it at any
moment and run the same command again: finished attempts are kept, the ones in flight run again.
Ctrl-C stops cleanly (exit 130). Under a scripted policy, a coding task with no reference script for
an arm's tool set is recorded as "no scripted policy for this arm", not as a failure.`;

export const EXPERIMENT_REPORT_OPTIONS = {
  format: {
    type: "string",
    value: "<md|json>",
    help: "Markdown tables or the analysis as JSON",
    defaultHelp: "md",
  },
  out: { type: "string", value: "<file>", help: "write the report to FILE", defaultHelp: "stdout" },
  baseline: {
    type: "string",
    value: "<arm>",
    help: "compare the arms with this one",
    defaultHelp: "the baseline the run recorded",
  },
} as const;

export const EXPERIMENT_REPORT_HELP = `acilab experiment report — the statistics of an experiment's store

Usage: acilab experiment report DIR [--format md|json] [--out FILE] [--baseline ARM]

Options:
${optionLines(EXPERIMENT_REPORT_OPTIONS)}

Reads DIR/experiment.db (read-only; a run may be writing it) and each graded attempt's trajectory:
per arm version its resolved k/n with the 95 % Wilson interval, the exact McNemar test against the
baseline over matched (task, repeat) pairs, $/resolved, tokens and steps; the failure taxonomy; the
arm × task grid. A missing or truncated trajectory is marked, not fatal. Fields: docs/experiments.md.`;
