/** Problems with an experiment file: from schema issues to lines a person can act on, and the error. */
import type { z } from "zod";
import { nearestWord } from "../words/index.js";
import { ARM_KEYS, BASE_KEYS, TOP_LEVEL_KEYS } from "./schema.js";
import type { Path, Problem, Source } from "./source.js";

/** Thrown by loadExperiment: every problem found, each at its line and column. */
export class ExperimentError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly Problem[],
  ) {
    super(problems.map(formatProblem).join("\n"));
    this.name = "ExperimentError";
  }
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ""}${p.message}`;
}

export function problemAt(source: Source, file: string, path: Path, message: string, key = false): Problem {
  const at = source.locate(path, key);
  return { file, line: at.line, column: at.column, path: at.path, message };
}

/** The fields the object at `path` takes (the arms of a map-form file have no `name` field). */
function keysAt(path: Path, mapForm: boolean): readonly string[] {
  if (path.length === 0) return TOP_LEVEL_KEYS;
  if (path[0] === "base") return BASE_KEYS;
  if (path[0] === "arms") return mapForm ? BASE_KEYS : ARM_KEYS;
  return [];
}

export function unknownField(name: string, known: readonly string[], what: string): string {
  const best = nearestWord(name, known);
  const takes = `${what} takes ${known.join(", ")}`;
  return best !== undefined
    ? `unknown field "${name}" — did you mean "${best}"? (${takes})`
    : `unknown field "${name}" — ${takes}`;
}

function whatAt(path: Path): string {
  if (path.length === 0) return "an experiment file";
  if (path[0] === "base") return "base";
  return "an arm";
}

/** ", got 0" for a value the message does not already quote (the custom checks quote theirs). */
function got(issue: z.core.$ZodIssue): string {
  const input: unknown = issue.input;
  if (issue.code === "custom" || issue.code === "invalid_value") return "";
  if (input === null || ["number", "string", "boolean"].includes(typeof input))
    return `, got ${JSON.stringify(input)}`;
  return Array.isArray(input) ? ", got a list" : typeof input === "object" ? ", got a mapping" : "";
}

/** Each zod issue as a problem at the node it is about (for an unknown field: at that key). */
export function schemaProblems(
  error: z.ZodError,
  source: Source,
  file: string,
  options: { mapForm: boolean },
): Problem[] {
  const problems: Problem[] = [];
  for (const issue of error.issues) {
    const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        problems.push(
          problemAt(
            source,
            file,
            [...path, key],
            unknownField(key, keysAt(path, options.mapForm), whatAt(path)),
            true,
          ),
        );
    } else if (issue.code === "invalid_type" && issue.input === undefined) {
      const field = path.at(-1);
      problems.push(
        problemAt(source, file, path.slice(0, -1), `"${String(field)}" is missing (${issue.message})`),
      );
    } else problems.push(problemAt(source, file, path, `${issue.message}${got(issue)}`));
  }
  return problems;
}
