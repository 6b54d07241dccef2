import type { BuildReport, CandidateOutcome } from "../builders/index.js";
import {
  DEFAULT_MAX_COMMITS,
  DEFAULT_MAX_SRC_LINES,
  DEFAULT_SYNTH_MAX,
  mirror,
  synth,
} from "../builders/index.js";
import { LOG_PARSER_NAMES, type LogParserName } from "../eval/index.js";
import { parseBackend } from "../tasks/index.js";
import { numberOption, parse, UsageError } from "./args.js";
import { table } from "./format.js";
import { TASKS_BUILD_HELP } from "./help.js";

type Out = (text: string) => void;

const COMMON = {
  repo: { type: "string" },
  out: { type: "string" },
  "test-command": { type: "string" },
  "log-parser": { type: "string" },
  sandbox: { type: "string" },
} as const;

/** `acilab tasks mirror|synth`: build SWE-bench-style instances from a git repository. */
export async function tasksBuildCommand(argv: string[], out: Out, err: Out): Promise<number> {
  const [sub, ...rest] = argv;
  const command = `tasks ${sub}`;
  const { values } = parse(command, rest, {
    ...COMMON,
    "max-commits": { type: "string" },
    "max-src-lines": { type: "string" },
    max: { type: "string" },
    seed: { type: "string" },
  });
  if (values.help) {
    out(TASKS_BUILD_HELP);
    return 0;
  }
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
  let backend: ReturnType<typeof parseBackend>;
  try {
    backend = parseBackend(values.sandbox);
  } catch (e) {
    throw new UsageError((e as Error).message, command);
  }
  const outFile = values.out ?? `${sub}.jsonl`;
  const progress = (c: CandidateOutcome) =>
    err(
      `${c.kept ? "kept   " : "skipped"} ${c.sha === "-" ? "" : `${c.sha.slice(0, 10)} `}${c.subject} — ${c.reason}`,
    );
  const common = {
    repo: values.repo,
    out: outFile,
    backend,
    onCandidate: progress,
    ...(testCommand ? { testCommand } : {}),
  };
  let report: BuildReport;
  if (sub === "mirror") {
    report = await mirror({
      ...common,
      maxCommits: numberOption(values["max-commits"], "max-commits", command) ?? DEFAULT_MAX_COMMITS,
      maxSrcLines: numberOption(values["max-src-lines"], "max-src-lines", command) ?? DEFAULT_MAX_SRC_LINES,
    });
  } else {
    report = await synth({
      ...common,
      max: numberOption(values.max, "max", command) ?? DEFAULT_SYNTH_MAX,
      seed: numberOption(values.seed, "seed", command) ?? 0,
    });
  }
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
  return 0;
}
