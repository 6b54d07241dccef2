import { join } from "node:path";
import { imageSizeCommand } from "../cua/cli-image-size.js";
import { DEFAULT_SCREEN } from "../cua/env/index.js";
import type { TierName } from "../cua/scaling.js";
import {
  type CuaTask,
  type CuaTaskResult,
  getCuaTask,
  listCuaTasks,
  runCuaTask,
} from "../cua/tasks/index.js";
import type { ObserveKind, Size } from "../cua/types.js";
import { numberOption, parse, UsageError } from "./args.js";
import { table } from "./format.js";
import { CUA_HELP } from "./help.js";

type Out = (line: string) => void;

const OBSERVE_KINDS: readonly ObserveKind[] = ["screenshot", "a11y", "som"];

export interface CuaCommandDeps {
  interruptSignal: () => { signal: AbortSignal; dispose: () => void };
}

/**
 * `acilab cua --task <id|all> --policy <spec> --observe <kinds> --resolution WxH --out DIR`: run
 * built-in computer-use tasks in a fresh browser each, grade each on the app's final state.
 */
export async function cuaCommand(argv: string[], out: Out, deps: CuaCommandDeps): Promise<number> {
  // The loop's own subcommand (src/cua/cli-image-size.ts): model image size, tokens, click mapping.
  if (argv[0] === "image-size") return imageSizeCommand(argv.slice(1), out);
  const { values, positionals } = parse("cua", argv, {
    task: { type: "string" },
    policy: { type: "string" },
    observe: { type: "string" },
    resolution: { type: "string" },
    tier: { type: "string" },
    out: { type: "string" },
    "max-steps": { type: "string" },
    budget: { type: "string" },
    json: { type: "boolean" },
  });
  if (values.help || (!values.task && positionals.length === 0)) {
    out(CUA_HELP);
    return values.help ? 0 : 2;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, "cua");
  const tasks = taskOption(values.task ?? "");
  const observes = observeOption(values.observe);
  const screen = resolutionOption(values.resolution);
  const tier = tierOption(values.tier);
  const maxSteps = numberOption(values["max-steps"], "max-steps", "cua");
  const budget = numberOption(values.budget, "budget", "cua");
  const policySpec = values.policy ?? "scripted";
  const root =
    values.out ?? join("runs", `cua-${values.task}-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  const single = tasks.length === 1 && observes.length === 1;

  const interrupt = deps.interruptSignal();
  const results: CuaTaskResult[] = [];
  try {
    for (const task of tasks) {
      for (const observe of observes) {
        if (interrupt.signal.aborted) break;
        if (!task.observe.includes(observe)) {
          out(`skip ${task.id} · ${observe}: the task does not apply to that observation`);
          continue;
        }
        const dir = single ? root : join(root, task.id, observe);
        const result = await runCuaTask({
          task,
          policySpec,
          observe,
          screen,
          out: dir,
          ...(tier ? { tier } : {}),
          limits: {
            ...(maxSteps !== undefined ? { maxSteps } : {}),
            ...(budget !== undefined ? { budgetUsd: budget } : {}),
          },
          signal: interrupt.signal,
        });
        results.push(result);
        if (!values.json) out(describe(result, dir));
      }
    }
  } finally {
    interrupt.dispose();
  }
  if (values.json) out(JSON.stringify(single ? results[0] : results, null, 2));
  else if (!single) out(`\n${summaryTable(results)}\n\nwritten to ${root}/<task>/<observe>/`);
  if (results.some((r) => r.stop_reason === "aborted")) return 130;
  return 0;
}

function describe(r: CuaTaskResult, dir: string): string {
  const cost = r.cost_usd === null ? "unknown" : `$${r.cost_usd.toFixed(4)}`;
  const lines = [
    `${r.resolved ? "RESOLVED" : "NOT RESOLVED"} ${r.task} · ${r.observe} · ${r.resolution} (model sees ${r.model_image}) · policy ${r.policy}`,
    `  grade: ${r.grade.detail}`,
    `  stopped: ${r.stop_reason} (${r.detail}) after ${r.steps} steps, ${r.wall_s} s · tokens in ${r.tokens_in.toLocaleString("en-US")}${r.tokens_estimated ? " (est.)" : ""} · cost ${cost}`,
  ];
  for (const b of r.blocked) lines.push(`  confirmation gate refused: ${b}`);
  if (r.egress_refused.length > 0)
    lines.push(`  egress allowlist refused ${r.egress_refused.length} request(s)`);
  lines.push(`  written to ${dir}/ (trajectory.jsonl, frames/, result.json, contact-sheet.png)`);
  return lines.join("\n");
}

function summaryTable(results: CuaTaskResult[]): string {
  const resolved = results.filter((r) => r.resolved).length;
  return [
    table([
      ["task", "observe", "resolved", "stop", "steps", "tokens in", "blocked"],
      ...results.map((r) => [
        r.task,
        r.observe,
        r.resolved ? "yes" : "NO",
        r.stop_reason,
        String(r.steps),
        r.tokens_in.toLocaleString("en-US"),
        String(r.blocked.length),
      ]),
    ]),
    `\n${resolved}/${results.length} resolved`,
  ].join("\n");
}

function taskOption(value: string): CuaTask[] {
  if (value === "all") return listCuaTasks();
  try {
    return value.split(",").map((id) => getCuaTask(id.trim()));
  } catch (err) {
    throw new UsageError((err as Error).message, "cua");
  }
}

function observeOption(value: string | undefined): ObserveKind[] {
  const kinds = (value ?? "screenshot").split(",").map((k) => k.trim());
  for (const k of kinds)
    if (!(OBSERVE_KINDS as readonly string[]).includes(k))
      throw new UsageError(
        `--observe must be ${OBSERVE_KINDS.join(", ")} (or a comma list), got "${k}"`,
        "cua",
      );
  return kinds as ObserveKind[];
}

/** Screens the loopback app is laid out for; bigger or smaller still work but waste tokens or hide text. */
const MIN_SIDE = 320;
const MAX_SIDE = 3840;

function resolutionOption(value: string | undefined): Size {
  if (value === undefined) return DEFAULT_SCREEN;
  const m = /^(\d+)x(\d+)$/i.exec(value.trim());
  const width = Number(m?.[1]);
  const height = Number(m?.[2]);
  if (!m || [width, height].some((n) => n < MIN_SIDE || n > MAX_SIDE))
    throw new UsageError(
      `--resolution must be WIDTHxHEIGHT with each side ${MIN_SIDE}–${MAX_SIDE}, e.g. 1400x800; got "${value}"`,
      "cua",
    );
  return { width, height };
}

function tierOption(value: string | undefined): TierName | undefined {
  if (value === undefined) return undefined;
  if (value === "standard" || value === "high") return value;
  throw new UsageError(`--tier must be standard or high, got "${value}"`, "cua");
}
