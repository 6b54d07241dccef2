import { PathError } from "../../workspace/index.js";
import { failure, ToolFailure } from "../errors.js";
import type { ToolResult } from "../types.js";

export { failure, ToolFailure };

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
