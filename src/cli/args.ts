import { type ParseArgsConfig, parseArgs } from "node:util";
import { type BackendChoice, parseAllowRule, parseBackend } from "../sandbox/index.js";
import { GRADING_RULES, type GradingRules } from "../swebench/index.js";
import { didYouMean } from "../words/index.js";

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** Thrown for bad command lines; main prints the message and the command's help hint, exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

const HELP = { help: { type: "boolean", short: "h" } } as const;

export function parse<const O extends ParseArgsOptionsConfig>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: { ...options, ...HELP }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err), command);
  }
}

/**
 * A command that takes no positional arguments refuses one instead of ignoring it (`acilab suite
 * median-even` ran every task); `hint` says what the word was probably meant as.
 */
export function noPositionals(
  positionals: readonly string[],
  command: string,
  hint?: (word: string) => string,
): void {
  const [first] = positionals;
  if (first !== undefined)
    throw new UsageError(`unexpected argument "${first}"${hint ? ` — ${hint(first)}` : ""}`, command);
}

/** `--name` must be one of `allowed`: a usage error listing them otherwise. */
export function choiceOption<const T extends string>(
  value: string,
  allowed: readonly T[],
  name: string,
  command: string,
): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(
      `--${name} must be one of ${allowed.join(", ")}, got "${value}"${didYouMean(value.toLowerCase(), allowed)}`,
      command,
    );
  return value as T;
}

export function numberOption(value: string, name: string, command: string): number;
export function numberOption(value: string | undefined, name: string, command: string): number | undefined;
export function numberOption(value: string | undefined, name: string, command: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`--${name} must be a non-negative number, got "${value}"`, command);
  return n;
}

/** `--rules hardened|swebench` (default hardened): which rules grade the hidden-test log. */
export function rulesOption(value: string | undefined, command: string): GradingRules {
  if (value === undefined) return "hardened";
  const rules = GRADING_RULES.find((r) => r === value);
  if (rules) return rules;
  throw new UsageError(
    `--rules must be hardened (default: SWE-bench's rules plus tamper checks) or swebench (SWE-bench v5's verdicts exactly), got "${value}"`,
    command,
  );
}

/** `--sandbox auto|bwrap|process|runsc`; absent: ACILAB_SANDBOX, else auto. */
export function sandboxOption(value: string | undefined, command: string): BackendChoice {
  try {
    return parseBackend(value);
  } catch (err) {
    throw new UsageError((err as Error).message, command);
  }
}

/** `--allow-net` rules, checked now so a typo is a usage error rather than a failed run. */
export function allowNetOption(values: string[] | undefined, command: string): string[] {
  for (const rule of values ?? []) {
    try {
      parseAllowRule(rule);
    } catch (err) {
      throw new UsageError(`--allow-net ${rule}: ${(err as Error).message}`, command);
    }
  }
  return values ?? [];
}
