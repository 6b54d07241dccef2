/**
 * Which files a patch changes that are tests. A candidate patch that edits the tests can make the
 * hidden tests pass without fixing anything (or break the test patch), so the run lists such
 * instances apart; the list is a flag for a person to look at, not a verdict.
 */

/** Folders whose contents are tests wherever they sit in the tree. */
const TEST_DIRS = new Set(["test", "tests", "__tests__"]);

/** File names that are tests in the ecosystems acilab grades (pytest, jest/vitest/mocha, go). */
function isTestFileName(name: string): boolean {
  return (
    name === "conftest.py" ||
    name.startsWith("test_") ||
    name.endsWith("_test.py") ||
    name.endsWith("_test.go") ||
    /\.(test|spec)\.[^.]+$/.test(name) ||
    /^test\.[cm]?[jt]s$/.test(name)
  );
}

export function isTestPath(path: string): boolean {
  const parts = path.split("/").filter(Boolean);
  const name = parts.pop();
  if (name === undefined) return false;
  return parts.some((dir) => TEST_DIRS.has(dir.toLowerCase())) || isTestFileName(name.toLowerCase());
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * Git's C-style quoting of a path (`"b/\056git/x"`, `"tab\there"`, UTF-8 as octal bytes) undone, so
 * that what is checked is the name git and GNU patch will write, not its spelling.
 */
export function unquoteCPath(quoted: string): string {
  const inner = quoted.slice(1, -1);
  const bytes: number[] = [];
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i] as string;
    if (ch !== "\\") {
      bytes.push(...Buffer.from(ch, "utf8"));
      continue;
    }
    const next = inner[i + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(inner.slice(i + 1));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8) & 0xff);
      i += 3;
    } else {
      bytes.push(C_ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** `a/foo.py` → `foo.py`; `"a/with space.py"` → `with space.py`; `/dev/null` → undefined. */
function headerPath(raw: string, prefix: "a/" | "b/" | ""): string | undefined {
  let path = raw.startsWith('"')
    ? (/^"(?:[^"\\]|\\.)*"/.exec(raw)?.[0] ?? raw)
    : (raw.split("\t")[0]?.trim() ?? "");
  if (path.startsWith('"') && path.endsWith('"') && path.length >= 2) path = unquoteCPath(path);
  if (path === "/dev/null" || path === "") return undefined;
  return prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/**
 * Every path a unified or git diff names (old and new side, renames, copies, deletions, pure renames
 * with no hunks), in order of first appearance. Hunk bodies are skipped by their line counts, so a
 * removed line that reads "-- comment" is not mistaken for a `---` header.
 */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  const add = (p: string | undefined) => {
    if (p !== undefined && !paths.includes(p)) paths.push(p);
  };
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of patch.split("\n")) {
    if (oldLeft > 0 || newLeft > 0) {
      const mark = line[0];
      if (mark === " " || line === "") {
        oldLeft--;
        newLeft--;
      } else if (mark === "-") oldLeft--;
      else if (mark === "+") newLeft--;
      // "\ No newline at end of file" takes no count.
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    const git = /^diff --git (\S+|"(?:[^"\\]|\\.)*") (\S+|"(?:[^"\\]|\\.)*")$/.exec(line);
    if (git) {
      add(headerPath(git[1] ?? "", "a/"));
      add(headerPath(git[2] ?? "", "b/"));
    } else if (line.startsWith("--- ")) add(headerPath(line.slice(4), "a/"));
    else if (line.startsWith("+++ ")) add(headerPath(line.slice(4), "b/"));
    else {
      const moved = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line);
      if (moved) add(headerPath(moved[1] ?? "", ""));
    }
  }
  return paths;
}

/**
 * A git diff cut into its per-file blocks, each starting at its `diff --git` header; joined again
 * they are the diff. A hunk's lines all start with " ", "+", "-" or "\\", so a header cannot hide
 * inside one. Text before the first header (none in git's output) is its own block.
 */
export function splitDiff(diff: string): string[] {
  return diff.split(/^(?=diff --git )/m).filter((b) => b !== "");
}

/** The test files a patch touches (added, changed, deleted or renamed from/to), in diff order. */
export function touchesTests(patch: string | null): string[] {
  if (!patch) return [];
  return patchPaths(patch).filter(isTestPath);
}
