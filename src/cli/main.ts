import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, runTask } from "../loop/index.js";
import { resolveAutoPolicy } from "../policies/index.js";
import type { BackendChoice } from "../sandbox/index.js";
import { listTaskIds, loadTask, parseBackend, resolveTask } from "../tasks/index.js";
import { ACTION_FORMATS, type ActionFormat } from "../tools/code/index.js";
import { TOOLSETS } from "../tools/toolsets.js";
import { numberOption, parse, UsageError } from "./args.js";
import { formatCost, formatTokens, summary, table } from "./format.js";
import { MAIN_HELP, RUN_HELP, SUITE_HELP, TASKS_HELP } from "./help.js";
import { doctorCommand, sandboxCommand } from "./sandbox-commands.js";
import { runToolsCommand } from "./tools-run.js";

type Out = (text: string) => void;

/**
 * Ctrl-C (or SIGTERM) stops the current run cleanly: the running command is killed, the run ends with
 * reason "aborted" and its files are written. A second Ctrl-C exits at once.
 */
function interruptSignal(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(
      `\nacilab: ${name} received — stopping the run and saving what it did (again to quit now)\n`,
    );
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}

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
        return await suiteCommand(rest, out);
      case "doctor":
        return await doctorCommand(rest, out);
      case "sandbox":
        return await sandboxCommand(rest, out, err);
      case "tasks":
        return tasksCommand(rest, out);
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

function helpFor(command: string | undefined): string {
  return command === "run"
    ? RUN_HELP
    : command === "suite"
      ? SUITE_HELP
      : command === "tasks"
        ? TASKS_HELP
        : MAIN_HELP;
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
  });
  if (values.help) {
    out(RUN_HELP);
    return 0;
  }
  if (!values.task)
    throw new UsageError("--task is required (a built-in id such as median-even, or a task folder)", "run");
  const format = actionFormatOption(values["action-format"]);
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
  }).finally(interrupt.dispose);
  if (result.sandbox_warning && !values.json) out(`warning: ${result.sandbox_warning}`);
  out(values.json ? JSON.stringify(result, null, 2) : summary(result, dir));
  return result.stop_reason === "aborted" ? 130 : 0;
}

function actionFormatOption(value: string | undefined): ActionFormat | "both" {
  if (value === undefined) return "json";
  if (value === "both" || (ACTION_FORMATS as readonly string[]).includes(value))
    return value as ActionFormat | "both";
  throw new UsageError(`--action-format must be ${ACTION_FORMATS.join(", ")} or both, got "${value}"`, "run");
}

async function suiteCommand(argv: string[], out: Out): Promise<number> {
  const { values } = parse("suite", argv, {
    policy: { type: "string" },
    tools: { type: "string" },
    history: { type: "string" },
    out: { type: "string" },
    tasks: { type: "string" },
    fresh: { type: "boolean" },
    sandbox: { type: "string" },
  });
  if (values.help) {
    out(SUITE_HELP);
    return 0;
  }
  const ids = values.tasks
    ? values.tasks
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : listTaskIds();
  if (ids.length === 0)
    throw new Error("no built-in tasks found; is the tasks/ folder of the checkout present?");
  const policySpec = policyFor(values.policy ?? "auto", out);
  const tools = values.tools ?? "full";
  const root = values.out ?? join("runs", "suite");
  const sandbox = sandboxOption(values.sandbox, "suite");
  const results: RunResult[] = [];
  const interrupt = interruptSignal();
  for (const id of ids) {
    if (interrupt.signal.aborted) break;
    const dir = join(root, id);
    const done = join(dir, "result.json");
    const previous =
      !values.fresh && existsSync(done) ? (JSON.parse(readFileSync(done, "utf8")) as RunResult) : undefined;
    if (previous && previous.policy.split(":")[0] === policySpec.split(":")[0] && previous.tools === tools) {
      out(`${id}: already done in ${dir} (resolved: ${previous.resolved}); skipping — use --fresh to rerun`);
      results.push(previous);
      continue;
    }
    out(`${id}: running…`);
    const result = await runTask({
      task: loadTask(id),
      policySpec,
      tools,
      history: values.history ?? "all",
      out: dir,
      sandbox,
      signal: interrupt.signal,
    });
    if (result.sandbox_warning) out(`warning: ${result.sandbox_warning}`);
    // An interrupted task is not "done": drop its result so the next run of the suite redoes it.
    if (result.stop_reason === "aborted") rmSync(done, { force: true });
    results.push(result);
  }
  interrupt.dispose();
  const rows = [["task", "resolved", "steps", "tokens in/out", "cost", "stop reason", "wall s"]];
  for (const r of results)
    rows.push([
      r.task,
      r.resolved ? "yes" : "no",
      String(r.steps),
      formatTokens(r),
      formatCost(r),
      r.stop_reason,
      r.wall_s.toFixed(1),
    ]);
  const resolved = results.filter((r) => r.resolved).length;
  out("");
  out(table(rows));
  out("");
  out(
    `resolved ${resolved}/${results.length} · policy ${policySpec} · tools ${tools} · sandbox ${results[0]?.sandbox ?? "?"} · results in ${root}/`,
  );
  return 0;
}

function tasksCommand(argv: string[], out: Out): number {
  const { values, positionals } = parse("tasks", argv, {
    json: { type: "boolean" },
    toolsets: { type: "boolean" },
  });
  if (values.help || positionals[0] !== "list") {
    if (!values.help && positionals[0] !== undefined)
      throw new UsageError(`unknown subcommand "${positionals[0]}"`, "tasks");
    out(TASKS_HELP);
    return 0;
  }
  if (values.toolsets) {
    const sets = Object.values(TOOLSETS);
    if (values.json)
      out(
        JSON.stringify(
          sets.map((s) => ({ name: s.name, description: s.description, tools: s.tools.map((t) => t.name) })),
          null,
          2,
        ),
      );
    else
      out(
        table([
          ["tool set", "tools", "what it tests"],
          ...sets.map((s) => [s.name, s.tools.map((t) => t.name).join(","), s.description]),
        ]),
      );
    return 0;
  }
  const tasks = listTaskIds().map((id) => loadTask(id));
  if (values.json) {
    out(
      JSON.stringify(
        tasks.map((t) => ({
          id: t.id,
          title: t.title,
          language: t.language,
          FAIL_TO_PASS: t.failToPass,
          PASS_TO_PASS: t.passToPass,
          dir: t.dir,
        })),
        null,
        2,
      ),
    );
  } else {
    out(table([["id", "language", "title"], ...tasks.map((t) => [t.id, t.language, t.title])]));
  }
  return 0;
}
