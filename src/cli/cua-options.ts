/** The options and help of `acilab cua`, and how each option's value is checked. */
import {
  type CuaTask,
  DEFAULT_SCREEN,
  getCuaTask,
  listCuaTasks,
  loadTaskFiles,
  looksLikeTaskPath,
  type ObserveKind,
  parseScreen,
  type Size,
  type TaskFile,
  type TierName,
} from "../cua/index.js";
import { DEFAULT_CUA_LIMITS } from "../loop/index.js";
import { UsageError } from "./args.js";
import { optionLines } from "./options.js";
import { limitOptions, policyOption } from "./shared-options.js";

const OBSERVE_KINDS: readonly ObserveKind[] = ["screenshot", "a11y", "som"];

export const CUA_OPTIONS = {
  task: {
    type: "string",
    value: "<id|path>",
    help: 'a task from "acilab tasks list" (kind cua), a task file (task.yaml) or a folder of them, a comma list, or all',
  },
  policy: policyOption(
    "scripted",
    "who acts: scripted, scripted:<steps.json>, auto, or a model spec",
    "scripted, the task's reference script, its targets resolved from the page's elements even on screenshot runs",
  ),
  observe: {
    type: "string",
    value: "<kinds>",
    help: "what the model sees: screenshot | a11y (numbered elements) | som (numbered boxes drawn on the screenshot); a comma list runs each",
    default: "screenshot",
  },
  resolution: {
    type: "string",
    value: "<WxH>",
    help: "the browser's screen; the model's image follows --tier",
    default: `${DEFAULT_SCREEN.width}x${DEFAULT_SCREEN.height}`,
  },
  tier: {
    type: "string",
    value: "<t>",
    help: "vision tier that sizes the model's image: standard (1568 px / 1568 tokens) or high (2576 px / 4784 tokens)",
    defaultHelp: "standard",
  },
  out: {
    type: "string",
    value: "<dir>",
    help: "where trajectory.jsonl, frames/, result.json and contact-sheet.png go",
    defaultHelp: "runs/cua-<task>-<time>; with several runs, <dir>/<task>/<observe>/",
  },
  ...limitOptions(DEFAULT_CUA_LIMITS),
  json: { type: "boolean", help: "print result.json instead of the summary" },
} as const;

export const CUA_HELP = `acilab cua — run computer-use tasks in a real browser: the built-in ones, graded on the app's final
state, or task files pointing at any web app, graded by an expression read in the page

Usage: acilab cua --task <id|a,b|all|task.yaml|folder> [--policy <spec>] [--observe screenshot|a11y|som[,…]]
                  [--resolution WxH] [--tier standard|high] [--out DIR] [--max-steps N] [--budget USD]
       acilab cua image-size --screen WxH --tier standard|high

Options:
${optionLines(CUA_OPTIONS)}

Every episode gets a fresh app on 127.0.0.1 and a fresh browser profile, a session cookie instead of
credentials, an egress allowlist (the app only), and a confirmation gate that refuses destructive
clicks (nobody is there to approve them). "acilab cua image-size --help": the image a model sees for
a screen. See docs/computer-use.md.`;

/** Built-in ids, `all`, and task files or folders of them (anything that looks like a path). */
export function taskOption(value: string): Array<CuaTask | TaskFile> {
  if (value === "all") return listCuaTasks();
  try {
    return value
      .split(",")
      .map((v) => v.trim())
      .flatMap((v): Array<CuaTask | TaskFile> => (looksLikeTaskPath(v) ? loadTaskFiles(v) : [getCuaTask(v)]));
  } catch (err) {
    throw new UsageError((err as Error).message, "cua");
  }
}

export function observeOption(value: string): ObserveKind[] {
  const kinds = value.split(",").map((k) => k.trim());
  for (const k of kinds)
    if (!(OBSERVE_KINDS as readonly string[]).includes(k))
      throw new UsageError(
        `--observe must be ${OBSERVE_KINDS.join(", ")} (or a comma list), got "${k}"`,
        "cua",
      );
  return kinds as ObserveKind[];
}

export function resolutionOption(value: string): Size {
  try {
    return parseScreen(value);
  } catch (err) {
    throw new UsageError(`--${(err as Error).message}`, "cua");
  }
}

export function tierOption(value: string | undefined): TierName | undefined {
  if (value === undefined) return undefined;
  if (value === "standard" || value === "high") return value;
  throw new UsageError(`--tier must be standard or high, got "${value}"`, "cua");
}
