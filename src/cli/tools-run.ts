import {
  actorSpec,
  allInput,
  compareActionFormats,
  type RunSpec,
  runAnyTask,
  type ToolsRunResult,
  toolsOptions,
} from "../run/index.js";
import type { ToolsTask } from "../tasks/index.js";
import { table } from "./format.js";

type Out = (text: string) => void;

export interface ToolsRunOptions {
  task: ToolsTask;
  spec: RunSpec;
  /** Both action formats side by side instead of the spec's one. */
  both: boolean;
  out: string;
  json: boolean;
  signal: AbortSignal;
}

/**
 * `acilab run` on a tools task such as acme: one action format with a summary, or `both` with the
 * two formats side by side (turns, tool calls, input tokens, answer): code actions need fewer turns.
 */
export async function runToolsCommand(options: ToolsRunOptions, out: Out): Promise<ToolsRunResult[]> {
  const { spec } = options;
  const run = { out: options.out, signal: options.signal };
  const results = options.both
    ? await compareActionFormats(options.task, toolsOptions(spec), { ...run, actor: spec.actor })
    : [await runAnyTask(spec, options.task, run)];
  if (options.json) {
    out(JSON.stringify(options.both ? results : results[0], null, 2));
    return results;
  }
  out(`task ${options.task.id} · policy ${actorSpec(spec.actor)} · written to ${options.out}/`);
  out("");
  out(comparisonTable(results));
  const [json, code] = results;
  if (json && code && allInput(code.usage) > 0)
    out(
      `\ncode actions read ${(allInput(json.usage) / allInput(code.usage)).toFixed(1)}× fewer input tokens`,
    );
  return results;
}

export function comparisonTable(results: readonly ToolsRunResult[]): string {
  const rows = [["format", "turns", "tool calls", "input tokens", "answer", "resolved"]];
  for (const r of results) {
    rows.push([
      r.action_format,
      String(r.steps),
      String(r.tool_calls),
      `${allInput(r.usage).toLocaleString("en-US")}${r.usage.estimated ? " (est.)" : ""}`,
      r.grade.answer === null ? `(none: ${r.stop_reason})` : shorten(r.grade.answer, 60),
      r.resolved ? "yes" : "no",
    ]);
  }
  return table(rows);
}

function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
