import type { ToolErrorKind, ToolResult } from "./types.js";

/**
 * The one shape of a failed tool call, whoever writes it (the registry for unknown tools and bad
 * arguments, a tool for a bad path or a missing match): `error: <what went wrong and how to fix it>`
 * for the model, the kind for statistics.
 */
export function failure(kind: ToolErrorKind, message: string): ToolResult {
  return { output: `error: ${message}`, error: kind };
}

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
