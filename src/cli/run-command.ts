import { join } from "node:path";
import { listCuaTasks } from "../cua/index.js";
import { DEFAULT_LIMITS } from "../loop/index.js";
import { POLICY_SPEC_HELP } from "../policies/index.js";
import { type RunSpec, runAnyTask } from "../run/index.js";
import {
  type AnyTask,
  type InstanceTaskOptions,
  instanceTask,
  resolveTask,
  type Task,
  type ToolsTask,
} from "../tasks/index.js";
import { noPositionals, UsageError } from "./args.js";
import { summary } from "./format.js";
import { interruptSignal } from "./interrupt.js";
import { optionLines, parseOptions } from "./options.js";
import { limitDefaults, settingOptions, settingsFor, specFromFlags } from "./run-settings.js";
import { REPOS } from "./shared-options.js";
import { runToolsCommand } from "./tools-run.js";

type Out = (text: string) => void;

/** The settings `acilab run` takes: everything coding and tool tasks read. */
const RUN_SETTING_NAMES = settingsFor(["coding", "tools"]);

export const RUN_OPTIONS = {
  task: {
    type: "string",
    value: "<id|path>",
    help: 'a built-in task id (see "acilab tasks list"), a task folder, or "acme" (a tool-use task with no repository: how much is owed to Acme in late fees, graded on the answer)',
  },
  instances: {
    type: "string",
    value: "<file>",
    help: 'take --task ID from this instances file ("tasks mirror", "tasks export", or SWE-bench\'s rows as published): its repository, tests, environment and setup_commands',
  },
  repos: REPOS,
  hints: {
    type: "boolean",
    help: "with --instances: append the row's hints_text to the problem statement (SWE-bench's \"with hints\")",
  },
  ...settingOptions(RUN_SETTING_NAMES, {
    ...limitDefaults(DEFAULT_LIMITS),
    policy: { defaultHelp: "scripted, the task's reference script" },
    action_format: {
      help: "json: JSON tool calls; code: one Python/JavaScript program a turn (run_code) calling the tools as functions; both (tools tasks such as acme): run both and print turns, tool calls, input tokens and answers side by side",
    },
  }),
  out: {
    type: "string",
    value: "<dir>",
    help: "where to write trajectory.jsonl, patch.diff, result.json, report.json",
    defaultHelp: "runs/<task>-<time>",
  },
  json: { type: "boolean", help: "print result.json instead of the summary" },
} as const;

export const RUN_HELP = `acilab run — run an agent on one task, then grade it with the hidden tests

Usage: acilab run --task <id|path> [--instances FILE] [--policy <spec>] [--tools <set>]
                  [--action-format json|code|both] [--out <dir>]

Options:
${optionLines(RUN_OPTIONS)}

Policy specs:
${POLICY_SPEC_HELP.replace(/^/gm, "  ")}`;

/** What `acilab run` was asked to do, checked; the code that performs it takes this and nothing else. */
export interface RunRequest {
  task: AnyTask;
  spec: RunSpec;
  /** `--action-format both`: a tools task in both formats, side by side. */
  both: boolean;
  out: string;
  json: boolean;
}

/** `acilab run`: parse, then run the task (coding or tools) and print its summary. */
export async function runCommand(argv: string[], out: Out): Promise<number> {
  const request = parseRunRequest(argv, out);
  if (request === "help") {
    out(RUN_HELP);
    return 0;
  }
  return request.task.kind === "tools"
    ? runToolsRequest({ ...request, task: request.task }, out)
    : runCodingRequest({ ...request, task: request.task }, out);
}

/** The command line as a RunRequest, or "help"; bad command lines throw UsageError. */
export function parseRunRequest(argv: string[], out: Out): RunRequest | "help" {
  const { values, positionals } = parseOptions("run", argv, RUN_OPTIONS);
  if (values.help) return "help";
  noPositionals(positionals, "run", (w) => `a task is named with --task: acilab run --task ${w}`);
  if (!values.task)
    throw new UsageError("--task is required (a built-in id such as median-even, or a task folder)", "run");
  if (listCuaTasks().some((t) => t.id === values.task))
    throw new UsageError(
      `task "${values.task}" is a computer-use task, which "acilab run" does not drive — run "acilab cua --task ${values.task}"`,
      "run",
    );
  const format = values["action-format"];
  if (format !== undefined && !["json", "code", "both"].includes(format))
    throw new UsageError(`--action-format must be json, code or both, got "${format}"`, "run");
  const both = format === "both";
  if (values.hints && !values.instances)
    throw new UsageError("--hints is for --instances rows (it adds their hints_text to the prompt)", "run");
  const task = values.instances
    ? instanceById(values.instances, values.task, { repos: values.repos, hints: values.hints === true })
    : resolveTask(values.task);
  if (task.kind === "coding" && both)
    throw new UsageError("--action-format both compares formats on a tools task such as acme", "run");
  const flags = both ? { ...values, "action-format": undefined } : values;
  const { spec } = specFromFlags(flags, RUN_SETTING_NAMES, "run", { defaultPolicy: "scripted", out });
  return {
    task,
    spec,
    both,
    out: values.out ?? join("runs", `${task.id}-${new Date().toISOString().replace(/[:.]/g, "-")}`),
    json: values.json === true,
  };
}

/** `--instances FILE --task ID`; what is wrong with either is a usage error. */
function instanceById(file: string, id: string, options: InstanceTaskOptions): Task {
  try {
    return instanceTask(file, id, options);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e), "run");
  }
}

/** Runs a coding task and prints its summary (or result.json); 130 when interrupted. */
export async function runCodingRequest(request: RunRequest & { task: Task }, out: Out): Promise<number> {
  const interrupt = interruptSignal();
  const result = await runAnyTask(request.spec, request.task, {
    out: request.out,
    signal: interrupt.signal,
    log: (line) => process.stderr.write(`${line}\n`),
  }).finally(interrupt.dispose);
  if (!request.json) {
    if (result.sandbox_warning) out(`warning: ${result.sandbox_warning}`);
    for (const w of result.warnings) out(`warning: ${w}`);
  }
  out(request.json ? JSON.stringify(result, null, 2) : summary(result, request.out));
  return result.stop_reason === "aborted" ? 130 : 0;
}

/** Runs a tools task (one format, or both side by side); 130 when interrupted. */
export async function runToolsRequest(request: RunRequest & { task: ToolsTask }, out: Out): Promise<number> {
  const interrupt = interruptSignal();
  const results = await runToolsCommand(
    {
      task: request.task,
      spec: request.spec,
      both: request.both,
      out: request.out,
      json: request.json,
      signal: interrupt.signal,
    },
    out,
  ).finally(interrupt.dispose);
  return results.some((r) => r.stop_reason === "aborted") ? 130 : 0;
}
