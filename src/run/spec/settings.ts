/**
 * The run settings, each declared once: its value's schema (what an experiment file, a job or a
 * flag's text must give), which kinds of task read it, and its flag. CLI flags, experiment arms,
 * `suite` and the worker job protocol all read these through this table; ./spec.ts turns what was
 * given into the one RunSpec, defaults filled.
 */
import { z } from "zod";
import { DEFAULT_SCREEN, parseScreen, parseScreenshotHistory } from "../../cua/index.js";
import { REPO_MAP_CHOICES } from "../../harness/index.js";
import { parseHistorySpec } from "../../history/index.js";
import { parsePolicySpec } from "../../policies/index.js";
import { BACKEND_CHOICES, parseAllowRule } from "../../sandbox/index.js";
import { GRADING_RULES, PIN_POLICIES } from "../../swebench/index.js";
import { ACTION_FORMATS, TOOLSETS } from "../../tools/index.js";
import { didYouMean } from "../../words/index.js";
import type { TaskKind } from "../result.js";
import { DEFAULT_COMMAND_TIMEOUT_MS } from "../workspace-loop.js";

/** A string checked by a parser that throws a sentence saying what is wrong; the sentence is the issue. */
function parsed(check: (value: string) => unknown) {
  return z.string({ error: "must be text" }).superRefine((value, ctx) => {
    try {
      check(value);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
    }
  });
}

function oneOf<const T extends readonly [string, ...string[]]>(what: string, values: T) {
  return z.enum(values, {
    error: (issue) =>
      typeof issue.input === "string"
        ? `no ${what} "${issue.input}" — use ${values.join(", ")}`
        : `must be one of ${values.join(", ")}`,
  });
}

const COUNT = "must be a whole number ≥ 1";
const count = () => z.number({ error: COUNT }).int(COUNT).min(1, COUNT);
const POSITIVE = "must be a number > 0";
const positive = () => z.number({ error: POSITIVE }).positive(POSITIVE);
const ON_OFF = ["on", "off"] as const;

const toolSet = z.string({ error: "must be a tool set's name" }).superRefine((name, ctx) => {
  if (!(name in TOOLSETS))
    ctx.addIssue({
      code: "custom",
      message: `no tool set "${name}"${didYouMean(name, Object.keys(TOOLSETS))} (the tool sets are ${Object.keys(TOOLSETS).join(", ")}: "acilab tasks list --toolsets")`,
    });
});

/** How a flag's text becomes the setting's value before the schema checks it. */
export type FlagText = "string" | "number" | "list";

export interface SettingDef<S extends z.ZodType = z.ZodType> {
  schema: S;
  /** The kinds of task that read it; a field no task of an experiment reads is an error there. */
  kinds: readonly TaskKind[];
  /** The flag; `defaultHelp` where the default is not a plain value of RUN_DEFAULTS (decided by the task or the machine). */
  flag: { name: string; value: string; help: string; text: FlagText; defaultHelp?: string };
}

const ALL: readonly TaskKind[] = ["coding", "tools", "cua"];
const LOOP_KINDS: readonly TaskKind[] = ["coding", "tools"];

/** Keeps each literal (a flag's name, its text kind) in the table's type: the CLI's tables are typed from it. */
function setting<const D extends SettingDef>(def: D): D {
  return def;
}

/**
 * Every setting that decides a run. The order is the order help pages and printed plans use. Their
 * defaults are RUN_DEFAULTS below, applied in one place, `resolveRunSpec` (./spec.ts).
 */
export const RUN_SETTINGS = {
  policy: setting({
    schema: parsed(parsePolicySpec),
    kinds: ALL,
    flag: {
      name: "policy",
      value: "<spec>",
      help: 'who acts (see "Policy specs" below); "auto" picks a model when ANTHROPIC_API_KEY or OPENAI_API_KEY is set',
      text: "string",
    },
  }),
  tools: setting({
    schema: toolSet,
    kinds: ["coding"],
    flag: {
      name: "tools",
      value: "<set>",
      help: 'tool set; see "acilab tasks list --toolsets"',
      text: "string",
    },
  }),
  history: setting({
    schema: parsed(parseHistorySpec),
    kinds: LOOP_KINDS,
    flag: {
      name: "history",
      value: "<spec>",
      help: "history processor: all | last:<k> | batch:<k>:<every>",
      text: "string",
    },
  }),
  action_format: setting({
    schema: oneOf("action format", ACTION_FORMATS),
    kinds: LOOP_KINDS,
    flag: {
      name: "action-format",
      value: "<f>",
      help: "json: JSON tool calls; code: one Python/JavaScript program a turn (run_code) calling the tools as functions",
      text: "string",
    },
  }),
  sandbox: setting({
    schema: oneOf("sandbox backend", BACKEND_CHOICES),
    kinds: LOOP_KINDS,
    flag: {
      name: "sandbox",
      value: "<backend>",
      help: `where commands run: ${BACKEND_CHOICES.join(" | ")} — gVisor (runsc), the strongest isolation at ~0.2–0.5 s per command, is never chosen by auto`,
      text: "string",
      defaultHelp: "auto: bwrap where it works, else process with a warning; ACILAB_SANDBOX overrides",
    },
  }),
  allow_net: setting({
    schema: z.array(
      parsed((v) => parseAllowRule(v)),
      { error: "must be a list of HOST[:PORT] rules" },
    ),
    kinds: LOOP_KINDS,
    flag: {
      name: "allow-net",
      value: "HOST[:PORT]",
      help: "let the commands reach HOST (ports 80 and 443) or HOST:PORT through the sandbox's HTTP proxy; repeatable (e.g. a package mirror); *.example.com for every subdomain, an IPv4 address for one address",
      text: "list",
      defaultHelp: "none: no network at all",
    },
  }),
  rules: setting({
    schema: oneOf("grading rule set", GRADING_RULES),
    kinds: ["coding"],
    flag: {
      name: "rules",
      value: "<r>",
      help: "how the hidden tests' log is graded: hardened (SWE-bench's rules plus canaries and tamper checks) | swebench (SWE-bench v5's verdicts exactly)",
      text: "string",
    },
  }),
  pins: setting({
    schema: oneOf("pin policy", PIN_POLICIES),
    kinds: ["coding"],
    flag: {
      name: "pins",
      value: "exact|available",
      help: "a pinned requirement the package indexes lack, for an instance's environment: exact — the instance is environment_unavailable, naming the pin; available — the nearest version there, and every report says pins: relaxed",
      text: "string",
    },
  }),
  max_steps: setting({
    schema: count(),
    kinds: ALL,
    flag: {
      name: "max-steps",
      value: "<n>",
      help: "step cap",
      text: "number",
      defaultHelp: "the task kind's: 50, computer use 30",
    },
  }),
  budget_usd: setting({
    schema: positive(),
    kinds: ALL,
    flag: {
      name: "budget",
      value: "<usd>",
      help: "dollar budget: the run stops once its ledger has spent this much",
      text: "number",
      defaultHelp: "the task kind's: 2, computer use 1.5",
    },
  }),
  timeout_s: setting({
    schema: positive(),
    kinds: ALL,
    flag: {
      name: "timeout",
      value: "<s>",
      help: "wall-clock limit for the whole run, in seconds; a command still running at it is killed then",
      text: "number",
      defaultHelp: "the task kind's: 1800, computer use 600",
    },
  }),
  command_timeout_s: setting({
    schema: positive(),
    kinds: LOOP_KINDS,
    flag: {
      name: "command-timeout",
      value: "<s>",
      help: "wall-clock limit for each command the agent runs in the sandbox (shell, run_tests, a code action), in seconds; the command's whole process group is killed at it",
      text: "number",
    },
  }),
  memory: setting({
    schema: oneOf("memory setting", ON_OFF),
    kinds: ["coding"],
    flag: {
      name: "memory",
      value: "on|off",
      help: "the task repository's AGENTS.md (CLAUDE.md as the fallback) in the prompt's cached prefix",
      text: "string",
    },
  }),
  plan: setting({
    schema: oneOf("plan tool setting", ON_OFF),
    kinds: ["coding"],
    flag: {
      name: "plan",
      value: "on|off",
      help: "offer the todo_write plan tool",
      text: "string",
    },
  }),
  repo_map: setting({
    schema: oneOf("repo map setting", REPO_MAP_CHOICES),
    kinds: ["coding"],
    flag: {
      name: "repo-map",
      value: "<m>",
      help: "the tree-sitter repo map: off | tool (the repo_map tool) | prefix (in the prompt's cached prefix)",
      text: "string",
    },
  }),
  settings: setting({
    schema: z
      .string({ error: "must be a settings file's path" })
      .min(1, "is empty: give a settings file's path"),
    kinds: ["coding"],
    flag: {
      name: "settings",
      value: "<file>",
      help: "a settings file (Claude Code's format) whose hooks and deny rules apply to the run; ask rules are denials here",
      text: "string",
      defaultHelp: "none",
    },
  }),
  observe: setting({
    schema: oneOf("observation kind", ["screenshot", "a11y", "som", "dom"]),
    kinds: ["cua"],
    flag: {
      name: "observe",
      value: "<kind>",
      help: "what the model sees: screenshot | a11y (numbered elements) | som (numbered boxes drawn on the screenshot) | dom (the cleaned page)",
      text: "string",
      defaultHelp: "the task's first",
    },
  }),
  resolution: setting({
    // One spelling, so "1400X800" and "1400x800" hash alike.
    schema: parsed((v) => parseScreen(v)).transform((v) => {
      const { width, height } = parseScreen(v);
      return `${width}x${height}`;
    }),
    kinds: ["cua"],
    flag: {
      name: "resolution",
      value: "<WxH>",
      help: "the browser's screen; the model's image follows --tier",
      text: "string",
    },
  }),
  tier: setting({
    schema: oneOf("vision tier", ["standard", "high"]),
    kinds: ["cua"],
    flag: {
      name: "tier",
      value: "<t>",
      help: "vision tier that sizes the model's image: standard (1568 px / 1568 tokens) or high (2576 px / 4784 tokens)",
      text: "string",
    },
  }),
  screenshot_history: setting({
    schema: parsed((v) => parseScreenshotHistory(v)),
    kinds: ["cua"],
    flag: {
      name: "screenshot-history",
      value: "<spec>",
      help: "screenshots kept in the conversation: all | last:<k> | batch:<k>:<every>",
      text: "string",
    },
  }),
} as const;

export type RunSettingName = keyof typeof RUN_SETTINGS;
export const RUN_SETTING_NAMES = Object.keys(RUN_SETTINGS) as RunSettingName[];

/** What a source said: each setting optional, nothing else allowed. The defaults fill the rest. */
export type RunSettings = {
  [K in RunSettingName]?: z.output<(typeof RUN_SETTINGS)[K]["schema"]> | undefined;
};

type Shapes = { [K in RunSettingName]: (typeof RUN_SETTINGS)[K]["schema"] };
const SHAPES = Object.fromEntries(RUN_SETTING_NAMES.map((k) => [k, RUN_SETTINGS[k].schema])) as Shapes;

/** The settings as one strict object, every field optional: what files and jobs are checked against. */
export const RUN_SETTINGS_SCHEMA = z.strictObject(SHAPES).partial();

/**
 * The defaults of every setting that has a plain one, in one place: `resolveRunSpec` applies them
 * and the flags' help shows them. The rest are decided elsewhere and say so in their `defaultHelp`:
 * the sandbox by ACILAB_SANDBOX, the limits by the task's kind, `observe` by the task.
 */
export const RUN_DEFAULTS = {
  policy: "auto",
  tools: "full",
  history: "all",
  action_format: "json",
  allow_net: [] as string[],
  rules: "hardened",
  pins: "exact",
  command_timeout_s: DEFAULT_COMMAND_TIMEOUT_MS / 1000,
  memory: "on",
  plan: "off",
  repo_map: "off",
  resolution: `${DEFAULT_SCREEN.width}x${DEFAULT_SCREEN.height}`,
  tier: "standard",
  screenshot_history: "all",
} as const satisfies RunSettings;

/** Which kinds read each setting. */
export function settingKinds(name: RunSettingName): readonly TaskKind[] {
  return RUN_SETTINGS[name].kinds;
}

export const KIND_NAMES: Readonly<Record<TaskKind, string>> = {
  coding: "coding",
  tools: "tool-use",
  cua: "computer-use",
};
