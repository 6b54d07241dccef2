import { compareActionFormats, type Limits, runToolsTask, type ToolsRunResult } from "../loop/index.js";
import type { ToolsTask } from "../tasks/index.js";
import type { ActionFormat } from "../tools/code/index.js";
import { table } from "./format.js";

type Out = (text: string) => void;

export interface ToolsRunOptions {
  task: ToolsTask;
  format: ActionFormat | "both";
  policySpec: string;
  history: string;
  out: string;
  limits: Partial<Limits>;
  json: boolean;
  signal: AbortSignal;
}

/**
 * `acilab run` on a tools task such as acme: one action format with a summary, or `both` with seed
 * 000's comparison table (turns, tool calls, input tokens, answer).
 */
export async function runToolsCommand(options: ToolsRunOptions, out: Out): Promise<ToolsRunResult[]> {
  const common = {
    task: options.task,
    policySpec: options.policySpec,
    history: options.history,
    out: options.out,
    limits: options.limits,
    signal: options.signal,
  };
  const results =
    options.format === "both"
      ? await compareActionFormats(common)
      : [await runToolsTask({ ...common, actionFormat: options.format })];
  if (options.json) {
    out(JSON.stringify(options.format === "both" ? results : results[0], null, 2));
    return results;
  }
  out(`task ${options.task.id} · policy ${options.policySpec} · written to ${options.out}/`);
  out("");
  out(comparisonTable(results));
  const [json, code] = results;
  if (json && code && code.tokens_in > 0)
    out(`\ncode actions read ${(json.tokens_in / code.tokens_in).toFixed(1)}× fewer input tokens`);
  return results;
}

export function comparisonTable(results: readonly ToolsRunResult[]): string {
  const rows = [["format", "turns", "tool calls", "input tokens", "answer", "resolved"]];
  for (const r of results) {
    rows.push([
      r.action_format,
      String(r.steps),
      String(r.tool_calls),
      `${r.tokens_in.toLocaleString("en-US")}${r.tokens_estimated ? " (est.)" : ""}`,
      r.answer === null ? `(none: ${r.stop_reason})` : shorten(r.answer, 60),
      r.resolved ? "yes" : "no",
    ]);
  }
  return table(rows);
}

function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
