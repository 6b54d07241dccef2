/**
 * Every command's --help and its parser agree: an option the help lists is accepted, an option it
 * does not list is refused with a usage error, and a "<value>" in the help means the option takes one.
 * Checked from the outside, through main(), against every option name any command knows.
 */
import { describe, expect, it } from "vitest";
import { AGENT_OPTIONS, AGENT_TRUST_OPTIONS } from "./agent-options.js";
import { BON_CURVE_OPTIONS } from "./bon-curve-command.js";
import { IMAGE_SIZE_OPTIONS } from "./cua-image-size.js";
import { CUA_OPTIONS } from "./cua-options.js";
import { ENV_BUILD_OPTIONS, ENV_LIST_OPTIONS, ENV_PRUNE_OPTIONS } from "./env-command.js";
import {
  EXPERIMENT_INIT_OPTIONS,
  EXPERIMENT_REPORT_OPTIONS,
  EXPERIMENT_RUN_OPTIONS,
  EXPERIMENT_VALIDATE_OPTIONS,
  INSPECT_OPTIONS,
} from "./experiment-options.js";
import { EXPORT_ROLLOUTS_OPTIONS } from "./export-command.js";
import { GRADE_OPTIONS } from "./grade-command.js";
import { RUN_OPTIONS } from "./run-command.js";
import { DOCTOR_OPTIONS, SANDBOX_EXEC_OPTIONS } from "./sandbox-commands.js";
import { SUITE_OPTIONS } from "./suite-command.js";
import {
  TASKS_EXPORT_OPTIONS,
  TASKS_LIST_OPTIONS,
  TASKS_MINIWOB_OPTIONS,
  TASKS_MIRROR_OPTIONS,
  TASKS_SYNTH_OPTIONS,
  TASKS_VALIDATE_OPTIONS,
} from "./tasks-options.js";
import { runCli } from "./testing.js";

const COMMANDS: readonly (readonly string[])[] = [
  ["run"],
  ["suite"],
  ["grade"],
  ["doctor"],
  ["sandbox", "exec"],
  ["tasks", "list"],
  ["tasks", "export"],
  ["tasks", "validate"],
  ["tasks", "mirror"],
  ["tasks", "synth"],
  ["tasks", "miniwob"],
  ["agent"],
  ["agent", "trust"],
  ["cua"],
  ["cua", "image-size"],
  ["experiment", "init"],
  ["experiment", "validate"],
  ["experiment", "run"],
  ["experiment", "report"],
  ["inspect"],
  ["env", "build"],
  ["env", "list"],
  ["env", "prune"],
  ["bon-curve"],
  ["export", "rollouts"],
];

const TABLES = [
  AGENT_OPTIONS,
  AGENT_TRUST_OPTIONS,
  BON_CURVE_OPTIONS,
  RUN_OPTIONS,
  SUITE_OPTIONS,
  GRADE_OPTIONS,
  DOCTOR_OPTIONS,
  SANDBOX_EXEC_OPTIONS,
  TASKS_LIST_OPTIONS,
  TASKS_EXPORT_OPTIONS,
  TASKS_VALIDATE_OPTIONS,
  TASKS_MIRROR_OPTIONS,
  TASKS_SYNTH_OPTIONS,
  TASKS_MINIWOB_OPTIONS,
  CUA_OPTIONS,
  IMAGE_SIZE_OPTIONS,
  EXPERIMENT_INIT_OPTIONS,
  EXPERIMENT_VALIDATE_OPTIONS,
  EXPERIMENT_RUN_OPTIONS,
  EXPERIMENT_REPORT_OPTIONS,
  INSPECT_OPTIONS,
  ENV_BUILD_OPTIONS,
  ENV_LIST_OPTIONS,
  ENV_PRUNE_OPTIONS,
  EXPORT_ROLLOUTS_OPTIONS,
];

const cli = (argv: readonly string[]) => runCli(argv);

/** An option line: two spaces, `--name`, an optional placeholder, then the description. */
const OPTION_LINE = /^ {2}(?:-\w, )?--([a-z][a-z0-9-]*)( \S+)?(?: {2,}|$)/;

function listedOptions(help: string): Map<string, { takesValue: boolean }> {
  const listed = new Map<string, { takesValue: boolean }>();
  for (const line of help.split("\n")) {
    const m = OPTION_LINE.exec(line);
    if (m?.[1]) listed.set(m[1], { takesValue: m[2] !== undefined });
  }
  return listed;
}

/** The options named on the usage lines that start with this very command (`acilab tasks mirror --…`). */
function usageOptions(help: string, command: readonly string[]): string[] {
  const block = help.split("\n\n").find((p) => p.startsWith("Usage:")) ?? "";
  const names: string[] = [];
  let mine = false;
  for (const line of block.split("\n")) {
    const words = line
      .replace(/^Usage:/, "")
      .trim()
      .split(/\s+/);
    if (words[0] === "acilab") {
      const next = words[command.length + 1] ?? "";
      mine = command.every((w, i) => words[i + 1] === w) && (next.startsWith("-") || next.startsWith("["));
    }
    if (mine) for (const m of line.matchAll(/--([a-z][a-z0-9-]*)/g)) if (m[1]) names.push(m[1]);
  }
  return names;
}

async function helpOf(command: readonly string[]): Promise<string> {
  const r = await cli([...command, "--help"]);
  expect(r.code, `${command.join(" ")} --help`).toBe(0);
  return r.out;
}

describe("every command's --help lists exactly the options it parses", () => {
  it("covers every command and subcommand", async () => {
    for (const command of COMMANDS) expect(listedOptions(await helpOf(command)).size).toBeGreaterThan(0);
  });

  it("accepts each option its help lists and refuses, with a usage error, every other one", async () => {
    const universe = new Set<string>(["no-such-option"]);
    for (const table of TABLES) for (const name of Object.keys(table)) universe.add(name);
    const helps = new Map<readonly string[], string>();
    for (const command of COMMANDS) {
      const help = await helpOf(command);
      helps.set(command, help);
      for (const name of listedOptions(help).keys()) universe.add(name);
    }
    for (const command of COMMANDS) {
      const name = command.join(" ");
      const accepted: string[] = [];
      for (const option of [...universe].sort()) {
        // A value for every option ("x" becomes a positional after a flag); --help returns before any work.
        const r = await cli([...command, `--${option}`, "x", "--help"]);
        if (r.code === 0) accepted.push(option);
        else {
          expect(r.code, `${name} --${option}`).toBe(2);
          expect(r.err).toContain(`Unknown option '--${option}'`);
          expect(r.err).toContain(`Run "acilab ${name} --help" for usage.`);
        }
      }
      expect(accepted, name).toEqual([...listedOptions(helps.get(command) ?? "").keys()].sort());
    }
  });

  it('shows a placeholder exactly for the options that take a value, and names only parsed ones in "Usage:"', async () => {
    for (const command of COMMANDS) {
      const name = command.join(" ");
      const help = await helpOf(command);
      const listed = listedOptions(help);
      for (const [option, { takesValue }] of listed) {
        const r = await cli([...command, "--help", `--${option}`]);
        if (takesValue) {
          expect(r.code, `${name} --${option} without its value`).toBe(2);
          expect(r.err).toMatch(new RegExp(`Option '(-\\w, )?--${option} <value>' argument missing`));
        } else expect(r.code, `${name} --${option} is a flag`).toBe(0);
      }
      for (const option of usageOptions(help, command))
        expect(listed.has(option), `${name}: --${option}`).toBe(true);
    }
  });
});
