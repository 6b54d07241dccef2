/**
 * `acilab export rollouts DIR`: an experiment's done attempts as training data, one JSON line each
 * (docs/rollouts.md). The lines go to --out or stdout; the summary of what was left out goes to
 * stderr, or to stdout as JSON with --json.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { StoreRefused } from "../experiment/index.js";
import {
  type ExportSummary,
  exportRollouts,
  loadTokenizer,
  REWARD_RULES,
  type RewardRule,
  summaryText,
  TOKENIZER_NAMES,
  type Tokenizer,
  TokenizerError,
} from "../rollouts/index.js";
import { choiceOption, UsageError } from "./args.js";
import { optionLines, parseOptions } from "./options.js";

type Out = (line: string) => void;
const COMMAND = "export rollouts";
const FORMATS = ["jsonl"] as const;

export const EXPORT_ROLLOUTS_OPTIONS = {
  format: { type: "string", value: "<jsonl>", help: "one JSON object per line", default: "jsonl" },
  out: { type: "string", value: "<file>", help: "write the lines to FILE", defaultHelp: "stdout" },
  tokenizer: {
    type: "string",
    value: "<name>",
    help: `also write token ids and a per-token mask: ${TOKENIZER_NAMES.join(", ")} (bytes needs no package; the others load js-tiktoken)`,
  },
  reward: {
    type: "string",
    value: "<rule>",
    help: "graded: the hidden tests' verdict on every done attempt, however its run ended; submitted-only: 0 for a run that never submitted (a limit ended it)",
    default: "graded",
  },
  "partial-credit": {
    type: "boolean",
    help: "reward the fraction of FAIL_TO_PASS tests passing in report.json instead of 1/0 resolved",
  },
  json: { type: "boolean", help: "print the summary as JSON on stdout (needs --out)" },
} as const;

export const EXPORT_HELP = `acilab export rollouts — an experiment's attempts as training data (JSONL)

Usage: acilab export rollouts DIR [--format jsonl] [--out FILE] [--tokenizer NAME] [--reward RULE]
                               [--partial-credit] [--json]

One line per done attempt of DIR (the --out of "acilab experiment run"): the conversation in Chat
Completions' shape, the tools offered, a source mask (1 on the policy's turns, 0 on what tools, the
task and the harness wrote), the reward from the hidden tests and the advantage against the other
attempts of the same arm and task: (reward − mean) / population std. Groups whose attempts all got
the same reward carry no signal and are dropped; unfinished attempts and broken trajectories are
skipped. What was left out, and why, is printed on stderr. docs/rollouts.md has every field.

Every line says whether its run submitted ("submitted") and whether its task is impossible. By
default (--reward graded) a run a limit stopped is rewarded by the verdict on the patch it left, as
the experiment's resolve rate counts it; --reward submitted-only gives it 0. An impossible task's
"resolved" is cheating: its reward is always 0.

Options:
${optionLines(EXPORT_ROLLOUTS_OPTIONS)}`;

export async function exportCommand(argv: string[], out: Out, err: Out): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    out(EXPORT_HELP);
    return 0;
  }
  if (sub !== "rollouts")
    throw new UsageError(`unknown export "${sub}" — acilab export rollouts DIR`, "export");
  const { values, positionals } = parseOptions(COMMAND, rest, EXPORT_ROLLOUTS_OPTIONS);
  if (values.help) {
    out(EXPORT_HELP);
    return 0;
  }
  const dir = positionals[0];
  if (dir === undefined || positionals.length > 1)
    throw new UsageError("give one DIR, the --out of an experiment run", COMMAND);
  if (!(FORMATS as readonly string[]).includes(values.format))
    throw new UsageError(`--format must be ${FORMATS.join(" or ")}, got "${values.format}"`, COMMAND);
  if (values.json && values.out === undefined)
    throw new UsageError("--json prints the summary on stdout, so the lines need --out FILE", COMMAND);
  const name = values.tokenizer;
  const reward: RewardRule = choiceOption(values.reward, REWARD_RULES, "reward", COMMAND);
  if (name !== undefined && !(TOKENIZER_NAMES as readonly string[]).includes(name))
    throw new UsageError(`unknown tokenizer "${name}" — use one of ${TOKENIZER_NAMES.join(", ")}`, COMMAND);
  let tokenizer: Tokenizer | undefined;
  let result: ReturnType<typeof exportRollouts>;
  try {
    if (name !== undefined) tokenizer = await loadTokenizer(name);
    result = exportRollouts(dir, {
      partialCredit: values["partial-credit"] === true,
      reward,
      ...(tokenizer ? { tokenizer } : {}),
    });
  } catch (e) {
    if (!(e instanceof StoreRefused) && !(e instanceof TokenizerError)) throw e;
    err(`acilab ${COMMAND}: ${e.message}`);
    return 1;
  }
  writeLines(result.lines, values.out, out);
  report(result.summary, values.out, values.json === true, out, err);
  return 0;
}

function writeLines(lines: readonly unknown[], file: string | undefined, out: Out): void {
  if (file === undefined) {
    for (const line of lines) out(JSON.stringify(line));
    return;
  }
  // One write per line: a large export never becomes one string in memory.
  const fd = openSync(file, "w");
  try {
    for (const line of lines) writeSync(fd, `${JSON.stringify(line)}\n`);
  } finally {
    closeSync(fd);
  }
}

function report(summary: ExportSummary, file: string | undefined, json: boolean, out: Out, err: Out): void {
  if (json) out(JSON.stringify(summary, null, 2));
  else for (const line of summaryText(summary, file ?? "stdout")) err(line);
}
