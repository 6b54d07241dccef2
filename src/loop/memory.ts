import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Codex caps its memory file at 32 KiB: enough for instructions, small enough to always cache. */
export const MEMORY_FILE_MAX_BYTES = 32 * 1024;
/** AGENTS.md is the cross-tool convention; CLAUDE.md is read when there is no AGENTS.md. */
export const MEMORY_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

/** The repository's memory file, for the stable prompt prefix; "" when there is none. */
export function loadMemory(root: string): string {
  for (const name of MEMORY_FILES) {
    const path = join(root, name);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, "utf8");
    const capped = Buffer.byteLength(text) > MEMORY_FILE_MAX_BYTES;
    const body = capped ? Buffer.from(text).subarray(0, MEMORY_FILE_MAX_BYTES).toString("utf8") : text;
    return `Project instructions from ${name}:\n${body}${capped ? `\n[${name} was cut at ${MEMORY_FILE_MAX_BYTES} bytes]` : ""}`;
  }
  return "";
}
