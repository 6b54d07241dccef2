import {
  type BuildReport,
  type CandidateOutcome,
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
  sandbox?: string;
}

/** `acilab tasks mirror|synth`: build SWE-bench-style instances from a git repository. */
export async function tasksBuildCommand(
  argv: string[],
  out: Out,
  err: Out,
  io: ProgressIo = { tty: process.stderr.isTTY === true, write: (t) => process.stderr.write(t) },
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
    const options = {
      ...common,
      maxCommits: numberOption(values["max-commits"], "max-commits", command),
      maxSrcLines: numberOption(values["max-src-lines"], "max-src-lines", command),
      base: base as MirrorBase,
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
    report = await mirror(options).finally(() => closeProgress?.());
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
  return 0;
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
  // One line per candidate ("[12/54] kept …") where nothing can be redrawn; on a terminal, a bar with
  // the count, how many were kept and the time left (the same display grading uses).
  let progress: ProgressDisplay | undefined;
  let decided = 0;
  const onPlan = (total: number) => {
    progress = createProgress({
      verb: "mirroring", // only mirror announces its plan (synth decides mutants as it plants them)
      goodWord: "kept",
      total,
      line: err,
      ...io,
    });
  };
  const onCandidate = (c: CandidateOutcome) => {
    decided++;
    const line = `${c.kept ? "kept   " : "skipped"} ${c.sha === "-" ? "" : `${c.sha.slice(0, 10)} `}${c.subject} — ${c.reason}`;
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
  };
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
      c.subject.length > 60 ? `${c.subject.slice(0, 57)}...` : c.subject,
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
}
