import {
  type BuildReport,
  type CandidateOutcome,
  KIND_CHOICES,
  type KindChoice,
  MIRROR_BASES,
  type MirrorBase,
  mirror,
  synth,
} from "../builders/index.js";
import { LOG_PARSER_NAMES, type LogParserName } from "../parsers/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import { numberOption, sandboxOption, UsageError } from "./args.js";
import { readSpecFile } from "./env-command.js";
import { table } from "./format.js";
import { type Interrupt, interruptSignal } from "./interrupt.js";
import { parseOptions } from "./options.js";
import { createProgress, type ProgressDisplay, type ProgressIo } from "./progress.js";
import {
  TASKS_MIRROR_HELP,
  TASKS_MIRROR_OPTIONS,
  TASKS_SYNTH_HELP,
  TASKS_SYNTH_OPTIONS,
} from "./tasks-options.js";

type Out = (text: string) => void;

/** The options mirror and synth share, as parsed. */
interface BuildValues {
  repo?: string;
  out: string;
  "test-command"?: string;
  "log-parser"?: string;
  "test-files"?: string[];
  sandbox?: string;
}

/** `acilab tasks mirror|synth`: build SWE-bench-style instances from a git repository. */
export async function tasksBuildCommand(
  argv: string[],
  out: Out,
  err: Out,
  io: ProgressIo = { tty: process.stderr.isTTY === true, write: (t) => process.stderr.write(t) },
  /** Ctrl-C / SIGTERM as an abort (tests pass their own). */
  interrupt: () => Interrupt = () =>
    interruptSignal((name) =>
      process.stderr.write(
        `\nacilab: ${name} received — stopping after the table of what was decided (again to quit now; --resume goes on)\n`,
      ),
    ),
): Promise<number> {
  const [sub, ...rest] = argv;
  let report: BuildReport;
  let outFile: string;
  let closeProgress: (() => void) | undefined;
  if (sub === "mirror") {
    const command = "tasks mirror";
    const { values } = parseOptions(command, rest, TASKS_MIRROR_OPTIONS);
    if (values.help) {
      out(TASKS_MIRROR_HELP);
      return 0;
    }
    const common = buildOptions(values, command, err, io);
    outFile = common.out;
    closeProgress = common.close;
    const base = values.base ?? "auto";
    if (!(MIRROR_BASES as readonly string[]).includes(base))
      throw new UsageError(`--base must be auto, head or fix, got "${base}"`, command);
    const kind = values.kind ?? "fix";
    if (!(KIND_CHOICES as readonly string[]).includes(kind))
      throw new UsageError(`--kind must be fix, feature or all, got "${kind}"`, command);
    const options = {
      ...common,
      maxCommits: numberOption(values["max-commits"], "max-commits", command),
      maxSrcLines: numberOption(values["max-src-lines"], "max-src-lines", command),
      base: base as MirrorBase,
      kind: kind as KindChoice,
      resume: values.resume === true,
      onWarning: (line: string) => err(`warning: ${line}`),
      ...positive("max-candidates", values["max-candidates"], command, (n) => ({ maxCandidates: n })),
      ...positive("test-timeout", values["test-timeout"], command, (n) => ({ testTimeoutMs: n * 1000 })),
      ...(values.env !== undefined
        ? { environment: values.env === "auto" ? ("auto" as const) : readSpecFile(values.env, command) }
        : {}),
      ...(values.python !== undefined ? { python: values.python } : {}),
      ...(values.node !== undefined ? { node: values.node } : {}),
      onEnvironment: err,
    };
    for (const flag of ["python", "node"] as const)
      if (values[flag] !== undefined && values.env !== "auto")
        throw new UsageError(
          `--${flag} goes with --env auto (a spec file names its own interpreter)`,
          command,
        );
    // The bar's line is ended however the mirror ends, so an error is not printed onto it.
    const stop = interrupt();
    report = await mirror({ ...options, signal: stop.signal }).finally(() => {
      stop.dispose();
      closeProgress?.();
    });
  } else {
    const command = "tasks synth";
    const { values } = parseOptions(command, rest, TASKS_SYNTH_OPTIONS);
    if (values.help) {
      out(TASKS_SYNTH_HELP);
      return 0;
    }
    const common = buildOptions(values, command, err, io);
    outFile = common.out;
    report = await synth({
      ...common,
      max: numberOption(values.max, "max", command),
      seed: numberOption(values.seed, "seed", command),
    });
  }
  printReport(sub, report, outFile, out, err);
  // Stopped by a signal: what was decided is written, and the exit status says it was cut short.
  return report.stopped ? 130 : 0;
}

/** The shared options, checked: a bad one is a usage error before any test runs. */
/** A positive number option as the options it sets; absent → nothing; anything else is a usage error. */
function positive<T>(
  name: string,
  raw: string | undefined,
  command: string,
  set: (n: number) => T,
): T | object {
  const n = numberOption(raw, name, command);
  if (n === undefined) return {};
  if (!(n > 0)) throw new UsageError(`--${name} must be a number above 0, got ${raw}`, command);
  return set(n);
}

function buildOptions(values: BuildValues, command: string, err: Out, io: ProgressIo) {
  if (!values.repo) throw new UsageError("--repo PATH is required (a git repository with tests)", command);
  const parser = values["log-parser"];
  if (parser !== undefined && !(LOG_PARSER_NAMES as readonly string[]).includes(parser))
    throw new UsageError(`--log-parser "${parser}" is not one of ${LOG_PARSER_NAMES.join(", ")}`, command);
  if (parser !== undefined && values["test-command"] === undefined)
    throw new UsageError("--log-parser goes with --test-command", command);
  const testCommand =
    values["test-command"] === undefined
      ? undefined
      : { command: values["test-command"], ...(parser ? { logParser: parser as LogParserName } : {}) };
  const backend: BackendChoice = sandboxOption(values.sandbox, command);
  const testFiles = values["test-files"] ?? [];
  // One line per candidate ("[12/54] kept …") where nothing can be redrawn; on a terminal, a bar with
  // the count, how many were kept and the time left (the same display grading uses).
  let progress: ProgressDisplay | undefined;
  let decided = 0;
  const onPlan = (total: number, already = 0) => {
    decided = already;
    if (already > 0) err(`resuming: ${already} of ${total} candidates were decided by the stopped run`);
    progress = createProgress({
      verb: "mirroring", // only mirror announces its plan (synth decides mutants as it plants them)
      goodWord: "kept",
      total,
      line: err,
      ...io,
    });
  };
  const onCandidate = (c: CandidateOutcome) => {
    if (c.resumed) return; // counted by onPlan
    decided++;
    const line = `${c.kept ? "kept   " : "skipped"} ${c.sha === "-" ? "" : `${c.sha.slice(0, 10)} `}${oneLine(c.subject, 72)} — ${c.reason}`;
    if (!progress) return err(line);
    progress.tick({
      line: `[${decided}/${progress.total}] ${line}`,
      done: decided,
      resolved: c.kept,
      error: false,
      ranNow: true,
    });
  };
  return {
    repo: values.repo,
    out: values.out,
    onPlan,
    close: () => progress?.close(),
    backend,
    onCandidate,
    ...(testCommand ? { testCommand } : {}),
    ...(testFiles.length > 0 ? { testFiles } : {}),
  };
}

/** A commit subject on one line, cut to `max` characters (git folds a long first paragraph into it). */
function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function printReport(
  sub: string | undefined,
  report: BuildReport,
  outFile: string,
  out: Out,
  err: Out,
): void {
  for (const w of report.warnings) err(`warning: ${w}`);
  out(`tests: ${report.setup.how}`);
  if (report.candidates.length > 0) {
    const rows = report.candidates.map((c) => [
      c.kept ? "kept" : "skipped",
      sub === "mirror" ? c.sha.slice(0, 10) : "",
      oneLine(c.subject, 60),
      c.instanceId ? `${c.reason} (${c.instanceId})` : c.reason,
    ]);
    out(
      table([
        ["", sub === "mirror" ? "commit" : "", sub === "mirror" ? "subject" : "mutant", "result"],
        ...rows,
      ]),
    );
  }
  const scanned =
    sub === "mirror"
      ? `${report.scanned} commits scanned, ${report.scanned - report.notFixes} fix commits (test + source changes)`
      : `${report.scanned} mutation sites, ${report.candidates.length} mutants tried`;
  out(
    `${scanned}; ${report.instances.length} instances written to ${outFile}${report.bundle ? ` (repository: ${report.bundle})` : ""}`,
  );
  if (report.stopped)
    out(
      `stopped: ${report.stopped.decided} of ${report.stopped.total} candidates decided (log: ${report.stopped.log}); the same command with --resume goes on from there`,
    );
}
