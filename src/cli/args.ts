import { type ParseArgsConfig, parseArgs } from "node:util";
import type { GradingRules } from "../swebench/index.js";

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

export function numberOption(value: string | undefined, name: string, command: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`--${name} must be a non-negative number, got "${value}"`, command);
  return n;
}

const RULES: readonly GradingRules[] = ["hardened", "swebench"];

/** `--rules hardened|swebench` (default hardened): which rules grade the hidden-test log. */
export function rulesOption(value: string | undefined, command: string): GradingRules {
  if (value === undefined) return "hardened";
  if ((RULES as readonly string[]).includes(value)) return value as GradingRules;
  throw new UsageError(
    `--rules must be hardened (default: SWE-bench's rules plus tamper checks) or swebench (SWE-bench v5's verdicts exactly), got "${value}"`,
    command,
  );
}
