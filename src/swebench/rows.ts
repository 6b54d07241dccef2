import { readFileSync } from "node:fs";
import type { z } from "zod";

/** Problems found in an input file; the message lists every one so a user fixes the file in one go. */
export class InputFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
    const more = problems.length - shown.length;
    super(
      `${file}: ${problems.length === 1 ? "1 problem" : `${problems.length} problems`}\n` +
        shown.map((p) => `  - ${p}`).join("\n") +
        (more > 0 ? `\n  … and ${more} more` : ""),
    );
    this.name = "InputFileError";
  }
}

/** A broken export usually breaks every row the same way: twenty lines say it, 2,294 would bury it. */
const MAX_PROBLEMS_SHOWN = 20;

/** One JSON value from a file, with where it came from in words a person can find ("line 3"). */
export interface Row {
  value: unknown;
  where: string;
  /** For a dict keyed by instance id: the key. */
  key?: string;
}

/**
 * Read `.jsonl` (one value a line, blank lines ignored) or `.json` (a list, or — when `dict` is set —
 * an object keyed by instance id). Malformed lines are collected into `problems`, not thrown, so one
 * bad line does not hide the next.
 */
export function readRows(file: string, options: { dict: boolean }): { rows: Row[]; problems: string[] } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new InputFileError(file, [`cannot read the file: ${(err as Error).message}`]);
  }
  const rows: Row[] = [];
  const problems: string[] = [];
  if (file.endsWith(".jsonl")) {
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        rows.push({ value: JSON.parse(line), where: `line ${i + 1}` });
      } catch (err) {
        problems.push(`line ${i + 1}: not valid JSON (${(err as Error).message})`);
      }
    });
    return { rows, problems };
  }
  if (!file.endsWith(".json"))
    throw new InputFileError(file, ["unknown format: use .jsonl (one object a line) or .json"]);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputFileError(file, [`not valid JSON: ${(err as Error).message}`]);
  }
  if (Array.isArray(value))
    return { rows: value.map((v, i) => ({ value: v, where: `index ${i}` })), problems };
  if (options.dict && value !== null && typeof value === "object")
    return {
      rows: Object.entries(value).map(([key, v]) => ({ value: v, where: `key "${key}"`, key })),
      problems,
    };
  throw new InputFileError(file, [
    options.dict
      ? "expected a list of predictions or an object keyed by instance_id"
      : "expected a list of instances (or use .jsonl, one instance a line)",
  ]);
}

/** `"instance_id": expected string, got number` — zod's issues, one line each, naming the field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length > 0 ? `"${issue.path.join(".")}"` : "the row";
      return `${field}: ${issue.message}`;
    })
    .join("; ");
}

/** The id a row claims to be, for error messages, before the row is validated. */
export function idOf(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const id = (value as Record<string, unknown>).instance_id;
  return typeof id === "string" ? id : undefined;
}
