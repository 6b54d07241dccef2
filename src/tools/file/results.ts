import { PathError } from "../../workspace/index.js";
import type { ToolErrorKind, ToolResult } from "../types.js";

/** A bad call, phrased for the model; thrown inside a tool and turned into an error result at its edge. */
export class ToolFailure extends Error {
  constructor(
    readonly kind: ToolErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}

export function failure(kind: ToolErrorKind, message: string): ToolResult {
  return { output: `error: ${message}`, error: kind };
}

/**
 * Run a tool body so that bad arguments (ToolFailure) and refused paths (PathError) become error
 * observations; anything else is an infrastructure failure and propagates.
 */
export async function asResult(body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof ToolFailure || err instanceof PathError) return failure(err.kind, err.message);
    throw err;
  }
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
