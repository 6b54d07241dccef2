/**
 * Options that several commands take, declared once. A command puts them in its own table
 * (`{ sandbox: SANDBOX, … }`); what differs per command (a default) is a parameter, not a copy.
 */
import type { Limits } from "../loop/index.js";
import type { OptionSpec } from "./options.js";

export const SANDBOX = {
  type: "string",
  value: "<backend>",
  help: "where commands run: auto | bwrap | process | runsc — gVisor, the strongest isolation at ~0.2–0.5 s per command, never chosen by auto",
  defaultHelp: "auto: bwrap where it works, else process with a warning; ACILAB_SANDBOX overrides",
} as const satisfies OptionSpec;

export const RULES = {
  type: "string",
  value: "<r>",
  help: "how the hidden tests' log is graded: hardened (SWE-bench's rules plus canaries and tamper checks) | swebench (SWE-bench v5's verdicts exactly)",
  default: "hardened",
} as const satisfies OptionSpec;

/** Published SWE-bench rows: where their repositories are, which rows, and what a missing pin does. */
export const REPOS = {
  type: "string",
  value: "DIR",
  help: "the repositories published SWE-bench rows name, each as DIR/OWNER+NAME, OWNER__NAME or OWNER/NAME (a work tree, a bare repository, or a folder holding one at repo/)",
  defaultHelp: "$ACILAB_REPOS",
} as const satisfies OptionSpec;

export const FILTER = {
  type: "string",
  value: "GLOB",
  help: "only the instances whose id matches GLOB (sympy__*, *-20590)",
} as const satisfies OptionSpec;

export const PINS = {
  type: "string",
  value: "exact|available",
  help: "a pinned requirement the package indexes lack: exact — the instance is environment_unavailable, naming the pin; available — the nearest version there, and every report says pins: relaxed",
  default: "exact",
} as const satisfies OptionSpec;

export const ALLOW_NET = {
  type: "string",
  multiple: true,
  value: "HOST[:PORT]",
  help: "let the commands reach HOST (ports 80 and 443) or HOST:PORT through the sandbox's HTTP proxy; repeatable (e.g. a package mirror); *.example.com for every subdomain, an IPv4 address for one address",
  defaultHelp: "none: no network at all",
} as const satisfies OptionSpec;

export const TOOLS = {
  type: "string",
  value: "<set>",
  help: 'tool set; see "acilab tasks list --toolsets"',
  default: "full",
} as const satisfies OptionSpec;

export const HISTORY = {
  type: "string",
  value: "<spec>",
  help: "history processor: all | last:<k> | batch:<k>:<every>",
  default: "all",
} as const satisfies OptionSpec;

/** `--policy`: who acts. The default differs (run: the script; suite: a model when a key is set). */
export function policyOption<const D extends string>(defaultSpec: D, help: string, defaultHelp?: string) {
  return {
    type: "string",
    value: "<spec>",
    help,
    default: defaultSpec,
    ...(defaultHelp !== undefined ? { defaultHelp } : {}),
  } as const satisfies OptionSpec;
}

/** `--max-steps` and `--budget`, showing the defaults of the loop that applies them. */
export function limitOptions(defaults: Pick<Limits, "maxSteps" | "budgetUsd">) {
  return {
    "max-steps": {
      type: "string",
      value: "<n>",
      help: "step cap",
      defaultHelp: String(defaults.maxSteps),
    },
    budget: {
      type: "string",
      value: "<usd>",
      help: "dollar budget",
      defaultHelp: String(defaults.budgetUsd),
    },
  } as const satisfies Record<string, OptionSpec>;
}

/** `--workers N`: how many at once. */
export function workersOption(what: string, defaultWorkers: number) {
  return {
    type: "string",
    value: "<n>",
    help: `${what} at once`,
    default: String(defaultWorkers),
  } as const satisfies OptionSpec;
}

/** The coordinator's options for running on a queue (`experiment run`, `grade`). */
export const QUEUE_OPTIONS = {
  redis: {
    type: "string",
    value: "<url>",
    help: "run the work on `acilab worker`s through this Redis (redis://[user:password@]host:port, rediss:// for TLS) instead of here",
    defaultHelp: "here, in this process",
  },
  queue: {
    type: "string",
    value: "<name>",
    help: "the queue's name in that Redis (workers must name the same)",
    default: "acilab",
  },
  bundles: {
    type: "string",
    value: "<dir>",
    help: "a folder every worker mounts at the same path, for repositories bundled larger than --bundle-cap-mb",
    defaultHelp: "bundles travel in Redis",
  },
  "bundle-cap-mb": {
    type: "string",
    value: "<mb>",
    help: "the largest repository bundle kept in Redis",
    default: "64",
  },
} as const satisfies Record<string, OptionSpec>;
