import { join } from "node:path";
import { listCuaTasks } from "../cua/tasks/index.js";
import { runTask } from "../loop/index.js";
import { resolveAutoPolicy } from "../policies/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import { parseAllowRule } from "../sandbox/index.js";
import { parseBackend, resolveTask } from "../tasks/index.js";
import { ACTION_FORMATS, type ActionFormat } from "../tools/code/index.js";
import { numberOption, parse, rulesOption, UsageError } from "./args.js";
import { cuaCommand } from "./cua-command.js";
import { summary } from "./format.js";
import { gradeCommand } from "./grade-command.js";
import {
  CUA_HELP,
  DOCTOR_HELP,
  GRADE_HELP,
  MAIN_HELP,
  RUN_HELP,
  SANDBOX_HELP,
  SUITE_HELP,
  TASKS_HELP,
} from "./help.js";
import { interruptSignal } from "./interrupt.js";
import { doctorCommand, sandboxCommand } from "./sandbox-commands.js";
import { suiteCommand } from "./suite-command.js";
import { tasksBuildCommand } from "./tasks-build.js";
import { tasksCommand } from "./tasks-commands.js";
import { runToolsCommand } from "./tools-run.js";

type Out = (text: string) => void;

/**
 * Ctrl-C (or SIGTERM) stops the current run cleanly: the running command is killed, the run ends with
 * reason "aborted" and its files are written. A second Ctrl-C exits at once.
 */

export async function main(
  argv: string[],
  out: Out = (t) => process.stdout.write(`${t}\n`),
  err: Out = (t) => process.stderr.write(`${t}\n`),
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        out(helpFor(rest[0]));
        return 0;
      case "run":
        return await runCommand(rest, out);
      case "suite":
        return await suiteCommand(rest, out, { policyFor, sandboxOption, interruptSignal });
      case "grade":
        return await gradeCommand(rest, out, err);
      case "doctor":
        return await doctorCommand(rest, out);
      case "sandbox":
        return await sandboxCommand(rest, out, err);
      case "tasks":
        if (rest[0] === "mirror" || rest[0] === "synth") return await tasksBuildCommand(rest, out, err);
        return await tasksCommand(rest, out);
      case "cua": // computer-use tasks (src/cli/cua-command.ts)
        return await cuaCommand(rest, out, { interruptSignal });
      default:
        throw new UsageError(`unknown command "${command}"`, "");
    }
  } catch (e) {
    if (e instanceof UsageError) {
      err(
        `acilab${e.command ? ` ${e.command}` : ""}: ${e.message}\nRun "acilab ${e.command ? `${e.command} ` : ""}--help" for usage.`,
      );
      return 2;
    }
    err(`acilab: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

const COMMAND_HELP: Record<string, string> = {
  run: RUN_HELP,
  suite: SUITE_HELP,
  tasks: TASKS_HELP,
  grade: GRADE_HELP,
  doctor: DOCTOR_HELP,
  sandbox: SANDBOX_HELP,
  cua: CUA_HELP,
};

function helpFor(command: string | undefined): string {
  return (command !== undefined ? COMMAND_HELP[command] : undefined) ?? MAIN_HELP;
}

function sandboxOption(value: string | undefined, command: string): BackendChoice {
  try {
    return parseBackend(value);
  } catch (err) {
    throw new UsageError((err as Error).message, command);
  }
}

function policyFor(spec: string | undefined, out: Out): string {
  if (spec !== "auto") return spec ?? "scripted";
  const auto = resolveAutoPolicy();
  out(`policy: ${auto.spec} (${auto.why})`);
  return auto.spec;
}

async function runCommand(argv: string[], out: Out): Promise<number> {
  const { values } = parse("run", argv, {
    task: { type: "string" },
    policy: { type: "string" },
    tools: { type: "string" },
    history: { type: "string" },
    "action-format": { type: "string" },
    out: { type: "string" },
    "max-steps": { type: "string" },
    budget: { type: "string" },
    timeout: { type: "string" },
    json: { type: "boolean" },
    sandbox: { type: "string" },
    "allow-net": { type: "string", multiple: true },
    rules: { type: "string" },
  });
  if (values.help) {
    out(RUN_HELP);
    return 0;
  }
  if (!values.task)
    throw new UsageError("--task is required (a built-in id such as median-even, or a task folder)", "run");
  const format = actionFormatOption(values["action-format"]);
  if (listCuaTasks().some((t) => t.id === values.task))
    throw new UsageError(
      `task "${values.task}" is a computer-use task, which "acilab run" does not drive — run "acilab cua --task ${values.task}"`,
      "run",
    );
  const task = resolveTask(values.task);
  if (task.kind === "repository" && format === "both")
    throw new UsageError("--action-format both compares formats on a tools task such as acme", "run");
  const dir = values.out ?? join("runs", `${task.id}-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  const maxSteps = numberOption(values["max-steps"], "max-steps", "run");
  const budget = numberOption(values.budget, "budget", "run");
  const timeout = numberOption(values.timeout, "timeout", "run");
  const limits = {
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    ...(budget !== undefined ? { budgetUsd: budget } : {}),
    ...(timeout !== undefined ? { wallClockMs: timeout * 1000 } : {}),
  };
  const sandbox = sandboxOption(values.sandbox, "run");
  const rules = rulesOption(values.rules, "run");
  const interrupt = interruptSignal();
  const common = {
    signal: interrupt.signal,
    policySpec: policyFor(values.policy, out),
    history: values.history ?? "all",
    out: dir,
    limits,
  };
  if (task.kind === "tools") {
    const results = await runToolsCommand({ ...common, task, format, json: !!values.json }, out).finally(
      interrupt.dispose,
    );
    return results.some((r) => r.stop_reason === "aborted") ? 130 : 0;
  }
  const result = await runTask({
    ...common,
    task,
    actionFormat: format === "both" ? "json" : format, // "both" was refused above
    tools: values.tools ?? "full",
    sandbox,
    rules,
    allowNet: allowNetOption(values["allow-net"], "run"),
  }).finally(interrupt.dispose);
  if (result.sandbox_warning && !values.json) out(`warning: ${result.sandbox_warning}`);
  out(values.json ? JSON.stringify(result, null, 2) : summary(result, dir));
  return result.stop_reason === "aborted" ? 130 : 0;
}

/** `--allow-net` rules, checked now so a typo is a usage error rather than a failed run. */
function allowNetOption(values: string[] | undefined, command: string): string[] {
  for (const rule of values ?? []) {
    try {
      parseAllowRule(rule);
    } catch (err) {
      throw new UsageError(`--allow-net ${rule}: ${(err as Error).message}`, command);
    }
  }
  return values ?? [];
}

function actionFormatOption(value: string | undefined): ActionFormat | "both" {
  if (value === undefined) return "json";
  if (value === "both" || (ACTION_FORMATS as readonly string[]).includes(value))
    return value as ActionFormat | "both";
  throw new UsageError(`--action-format must be ${ACTION_FORMATS.join(", ")} or both, got "${value}"`, "run");
}
