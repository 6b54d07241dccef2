import { join } from "node:path";
import { listCuaTasks } from "../cua/index.js";
import { REPO_MAP_CHOICES, type TaskHarnessChoice } from "../harness/index.js";
import { DEFAULT_LIMITS, type Limits, limitsFrom } from "../loop/index.js";
import { POLICY_SPEC_HELP } from "../policies/index.js";
import { codingRun, runAnyTask } from "../run/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import type { GradingRules } from "../swebench/index.js";
import {
  type AnyTask,
  type InstanceTaskOptions,
  instanceTask,
  resolveTask,
  type Task,
  type ToolsTask,
} from "../tasks/index.js";
import { ACTION_FORMATS, type ActionFormat } from "../tools/index.js";
import {
  allowNetOption,
  choiceOption,
  numberOption,
  policyFor,
  rulesOption,
  sandboxOption,
  UsageError,
} from "./args.js";
import { summary } from "./format.js";
import { interruptSignal } from "./interrupt.js";
import { optionLines, parseOptions } from "./options.js";
import {
  ALLOW_NET,
  HISTORY,
  limitOptions,
  policyOption,
  REPOS,
  RULES,
  SANDBOX,
  TOOLS,
} from "./shared-options.js";
import { runToolsCommand } from "./tools-run.js";

type Out = (text: string) => void;

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
  policy: policyOption(
    "scripted",
    'who acts; "auto" picks a model when ANTHROPIC_API_KEY or OPENAI_API_KEY is set',
    "scripted, the task's reference script",
  ),
  tools: TOOLS,
  history: HISTORY,
  "action-format": {
    type: "string",
    value: "<f>",
    help: "json: JSON tool calls; code: one Python/JavaScript program a turn (run_code) calling the tools as functions; both (tools tasks such as acme): run both and print turns, tool calls, input tokens and answers side by side",
    default: "json",
  },
  out: {
    type: "string",
    value: "<dir>",
    help: "where to write trajectory.jsonl, patch.diff, result.json, report.json",
    defaultHelp: "runs/<task>-<time>",
  },
  ...limitOptions(DEFAULT_LIMITS),
  timeout: {
    type: "string",
    value: "<s>",
    help: "wall-clock limit for the whole run, in seconds",
    defaultHelp: String(DEFAULT_LIMITS.wallClockMs / 1000),
  },
  json: { type: "boolean", help: "print result.json instead of the summary" },
  sandbox: SANDBOX,
  "allow-net": ALLOW_NET,
  rules: RULES,
  memory: {
    type: "string",
    value: "on|off",
    help: "the task repository's AGENTS.md (CLAUDE.md as the fallback) in the prompt's cached prefix",
    default: "on",
  },
  plan: { type: "string", value: "on|off", help: "offer the todo_write plan tool", default: "off" },
  "repo-map": {
    type: "string",
    value: "<m>",
    help: "the tree-sitter repo map: off | tool (the repo_map tool) | prefix (in the prompt's cached prefix)",
    default: "off",
  },
  settings: {
    type: "string",
    value: "<file>",
    help: "a settings file (Claude Code's format) whose hooks and deny rules apply to the run; ask rules are denials here",
  },
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
  format: ActionFormat | "both";
  policySpec: string;
  tools: string;
  history: string;
  out: string;
  limits: Partial<Limits>;
  json: boolean;
  sandbox: BackendChoice;
  rules: GradingRules;
  allowNet: string[];
  harness: TaskHarnessChoice;
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
  const { values } = parseOptions("run", argv, RUN_OPTIONS);
  if (values.help) return "help";
  if (!values.task)
    throw new UsageError("--task is required (a built-in id such as median-even, or a task folder)", "run");
  const format = actionFormatOption(values["action-format"]);
  if (listCuaTasks().some((t) => t.id === values.task))
    throw new UsageError(
      `task "${values.task}" is a computer-use task, which "acilab run" does not drive — run "acilab cua --task ${values.task}"`,
      "run",
    );
  if (values.hints && !values.instances)
    throw new UsageError("--hints is for --instances rows (it adds their hints_text to the prompt)", "run");
  const task = values.instances
    ? instanceById(values.instances, values.task, { repos: values.repos, hints: values.hints === true })
    : resolveTask(values.task);
  if (task.kind === "coding" && format === "both")
    throw new UsageError("--action-format both compares formats on a tools task such as acme", "run");
  const maxSteps = numberOption(values["max-steps"], "max-steps", "run");
  const budget = numberOption(values.budget, "budget", "run");
  const timeout = numberOption(values.timeout, "timeout", "run");
  const sandbox = sandboxOption(values.sandbox, "run");
  const rules = rulesOption(values.rules, "run");
  const allowNet = allowNetOption(values["allow-net"], "run");
  const harness: TaskHarnessChoice = {
    memory: choiceOption(values.memory, ["on", "off"], "memory", "run") === "on",
    plan: choiceOption(values.plan, ["on", "off"], "plan", "run") === "on",
    repoMap: choiceOption(values["repo-map"], REPO_MAP_CHOICES, "repo-map", "run"),
    ...(values.settings ? { settings: values.settings } : {}),
  };
  return {
    task,
    format,
    policySpec: policyFor(values.policy, out),
    tools: values.tools,
    history: values.history,
    out: values.out ?? join("runs", `${task.id}-${new Date().toISOString().replace(/[:.]/g, "-")}`),
    limits: limitsFrom({ maxSteps, budgetUsd: budget, timeoutS: timeout }),
    json: values.json === true,
    sandbox,
    rules,
    allowNet,
    harness,
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
  const task = codingRun(request.task, {
    history: request.history,
    limits: request.limits,
    actionFormat: request.format === "both" ? "json" : request.format, // "both" was refused when parsing
    tools: request.tools,
    sandbox: request.sandbox,
    rules: request.rules,
    allowNet: request.allowNet,
    harness: request.harness,
  });
  const result = await runAnyTask(task, {
    policySpec: request.policySpec,
    out: request.out,
    signal: interrupt.signal,
  }).finally(interrupt.dispose);
  if (result.sandbox_warning && !request.json) out(`warning: ${result.sandbox_warning}`);
  out(request.json ? JSON.stringify(result, null, 2) : summary(result, request.out));
  return result.stop_reason === "aborted" ? 130 : 0;
}

/** Runs a tools task (one format, or both side by side); 130 when interrupted. */
export async function runToolsRequest(request: RunRequest & { task: ToolsTask }, out: Out): Promise<number> {
  const interrupt = interruptSignal();
  const results = await runToolsCommand(
    {
      task: request.task,
      format: request.format,
      policySpec: request.policySpec,
      history: request.history,
      out: request.out,
      limits: request.limits,
      json: request.json,
      sandbox: request.sandbox,
      allowNet: request.allowNet,
      signal: interrupt.signal,
    },
    out,
  ).finally(interrupt.dispose);
  return results.some((r) => r.stop_reason === "aborted") ? 130 : 0;
}

function actionFormatOption(value: string): ActionFormat | "both" {
  if (value === "both" || (ACTION_FORMATS as readonly string[]).includes(value))
    return value as ActionFormat | "both";
  throw new UsageError(`--action-format must be ${ACTION_FORMATS.join(", ")} or both, got "${value}"`, "run");
}
