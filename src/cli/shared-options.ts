/**
 * Options that several commands take, declared once. A command puts them in its own table
 * (`{ sandbox: SANDBOX, … }`); what differs per command (a default) is a parameter, not a copy.
 */
import type { OptionSpec } from "./options.js";
import { settingOptions } from "./run-settings.js";

/** `--sandbox`, `--rules`, `--allow-net` and `--pins` for commands that are not runs (grade, tasks, env, agent, sandbox exec): the run settings' own flags. */
const RUN_FLAGS = settingOptions(["sandbox", "rules", "allow_net", "pins"]);
export const SANDBOX = RUN_FLAGS.sandbox;
export const RULES = RUN_FLAGS.rules;
export const ALLOW_NET = RUN_FLAGS["allow-net"];
export const PINS = RUN_FLAGS.pins;

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
