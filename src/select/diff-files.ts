/**
 * A unified diff read file by file, and applied to a file's base text in memory: how the vote sees a
 * candidate's post-image without running git or patch on the host over text the agent wrote. Strict:
 * a hunk whose context is not where it says (or within a few lines of it) does not apply, and the
 * caller falls back to comparing the diff's own lines.
 */
import { splitDiff } from "../swebench/index.js";

export interface Hunk {
  /** 1-based first line of the old side (0 for a new file). */
  oldStart: number;
  /** The hunk's lines with their mark: " " context, "-" removed, "+" added. */
  lines: { mark: " " | "-" | "+"; text: string }[];
}

export interface FileDiff {
  /** The path after the change (before it, for a deleted file). */
  path: string;
  status: "added" | "deleted" | "modified";
  hunks: Hunk[];
  /** The block exactly as the diff had it. */
  block: string;
}

/** How far from its stated line a hunk may have drifted and still apply (GNU patch's offset). */
const MAX_OFFSET = 3;

function stripPrefix(path: string): string {
  const unquoted = path.startsWith('"') && path.endsWith('"') ? path.slice(1, -1) : path;
  return unquoted.replace(/^[ab]\//, "");
}

/** Every file block of a diff; a block with no parsable header is skipped (nothing to apply). */
export function readDiff(diff: string): FileDiff[] {
  const files: FileDiff[] = [];
  for (const block of splitDiff(diff)) {
    const lines = block.split("\n");
    let oldPath: string | undefined;
    let newPath: string | undefined;
    const hunks: Hunk[] = [];
    let current: Hunk | undefined;
    for (const [index, line] of lines.entries()) {
      const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
      if (hunk) {
        current = { oldStart: Number(hunk[1]), lines: [] };
        hunks.push(current);
      } else if (current) {
        const mark = line[0];
        if (mark === " " || mark === "-" || mark === "+") current.lines.push({ mark, text: line.slice(1) });
        // An empty line inside a hunk is a context line whose trailing space an editor dropped.
        else if (line === "" && index < lines.length - 1) current.lines.push({ mark: " ", text: "" });
      } else if (line.startsWith("--- ")) oldPath = line.slice(4);
      else if (line.startsWith("+++ ")) newPath = line.slice(4);
    }
    const header = /^diff --git (\S+) (\S+)/.exec(lines[0] ?? "");
    const after = newPath && newPath !== "/dev/null" ? newPath : undefined;
    const before = oldPath && oldPath !== "/dev/null" ? oldPath : undefined;
    const path = stripPrefix(after ?? before ?? header?.[2] ?? "");
    if (path === "") continue;
    const status =
      oldPath === "/dev/null" || /^new file mode/m.test(block)
        ? "added"
        : newPath === "/dev/null" || /^deleted file mode/m.test(block)
          ? "deleted"
          : "modified";
    files.push({ path, status, hunks, block });
  }
  return files;
}

export interface PostImage {
  text: string;
  /** 1-based lines of `text` the diff added, or next to which it removed lines. */
  changed: number[];
}

/** The file after the diff, and where it changed; undefined when a hunk does not apply to `base`. */
export function applyFileDiff(base: string, file: FileDiff): PostImage | undefined {
  if (file.status === "deleted") return { text: "", changed: [] };
  const source = file.status === "added" ? [] : base.split("\n");
  const out: string[] = [];
  const changed = new Set<number>();
  let at = 0; // next unread index of source
  for (const hunk of file.hunks) {
    const old = hunk.lines.filter((l) => l.mark !== "+").map((l) => l.text);
    const start = findBlock(source, old, Math.max(0, hunk.oldStart - 1), at);
    if (start === undefined) return undefined;
    out.push(...source.slice(at, start));
    for (const l of hunk.lines) {
      if (l.mark === "-") changed.add(out.length + 1);
      else {
        if (l.mark === "+") changed.add(out.length + 1);
        out.push(l.text);
      }
    }
    at = start + old.length;
  }
  out.push(...source.slice(at));
  const last = Math.max(1, out.length);
  return { text: out.join("\n"), changed: [...changed].map((n) => Math.min(n, last)) };
}

function findBlock(
  source: readonly string[],
  block: readonly string[],
  stated: number,
  from: number,
): number | undefined {
  const matches = (start: number) =>
    start >= from &&
    start + block.length <= source.length &&
    block.every((line, i) => source[start + i] === line);
  if (block.length === 0) return Math.max(from, Math.min(stated, source.length));
  for (let offset = 0; offset <= MAX_OFFSET; offset++)
    for (const start of offset === 0 ? [stated] : [stated - offset, stated + offset])
      if (matches(start)) return start;
  return undefined;
}
