/**
 * What one action of a trajectory reads best as in the inspector: an edit as the diff of its step,
 * a new file or a program as numbered code, a command with its output and how it ended; anything
 * else as its arguments. Pure: an action record in, a view out.
 */
import { capText } from "../trajectory/index.js";
import { asList, asRecord, asText, headAndTail, INSPECT_CAPS, str } from "./fields.js";

/**
 * How an action reads best: an edit as the diff of its step, a new file (or a program) as code with
 * line numbers, a command with its output; anything else as its arguments.
 */
export type ActionView =
  | { kind: "diff"; diff: string }
  | { kind: "code"; path: string; lines: string[]; cut: number }
  | { kind: "command"; command: string; status: string | null; output: string }
  | { kind: "args" };

/** The trailer a command's observation ends with: its exit code, a timeout, a kill (tools/exec). */
const STATUS_LINE =
  /\n(\[(?:exit code -?\d+|timed out after[^\n]*|stopped at the run's wall-clock limit[^\n]*|killed by signal[^\n]*)\])$/;

/** A command and its output, the status line split off so the page can set it apart. */
function commandView(command: string, observation: string): ActionView {
  const m = STATUS_LINE.exec(observation);
  return {
    kind: "command",
    command: capText(command, INSPECT_CAPS.input),
    status: m ? (m[1] as string) : null,
    output: capText(m ? observation.slice(0, m.index) : observation, INSPECT_CAPS.observation),
  };
}

function codeView(path: string, text: string): ActionView {
  const { items, cut } = headAndTail(text.replace(/\n$/, "").split("\n"), INSPECT_CAPS.codeLines);
  return { kind: "code", path, lines: items, cut };
}

/** str_replace from its arguments alone (a trajectory from before steps recorded their diff). */
function replaceDiff(path: string, old: string, replacement: string): string {
  const side = (sign: string, text: string) =>
    text
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `${sign}${l}`);
  return [
    `--- a/${path}`,
    `+++ b/${path}`,
    "@@ replaced @@",
    ...side("-", old),
    ...side("+", replacement),
  ].join("\n");
}

/**
 * What to show of one action. A call that failed shows its arguments (its edit never happened);
 * a recorded step diff wins over what the arguments suggest.
 */
export function actionView(action: Record<string, unknown>): ActionView {
  const call = asRecord(action.call);
  const tool = str(call.name) ?? "";
  const input = asRecord(call.input);
  const path = str(input.path) ?? "";
  if (tool === "shell" && typeof input.command === "string")
    return commandView(input.command, asText(action.observation));
  if (tool === "run_tests") {
    const args = asList(input.args).map(asText);
    return commandView(["run_tests", ...args].join(" "), asText(action.observation));
  }
  if (tool === "run_code" && typeof input.code === "string")
    return codeView(`program (${str(input.language) ?? "code"})`, input.code);
  if (str(action.error) !== null) return { kind: "args" };
  if (tool === "create_file" && typeof input.content === "string") return codeView(path, input.content);
  const recorded = str(action.diff);
  if (recorded !== null) return { kind: "diff", diff: capText(recorded, INSPECT_CAPS.diff) };
  if (tool === "str_replace" && typeof input.old === "string" && typeof input.new === "string")
    return { kind: "diff", diff: capText(replaceDiff(path, input.old, input.new), INSPECT_CAPS.diff) };
  if (tool === "write_file" && typeof input.content === "string") return codeView(path, input.content);
  return { kind: "args" };
}
