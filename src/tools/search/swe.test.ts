import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../sandbox/index.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { newEditorState, type ToolContext } from "../types.js";
import { searchDirTool, searchFileTool } from "./index.js";

let base: string;
let root: string;
let outside: string;

function write(rel: string, text: string): void {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

function ctx(openFile?: string): ToolContext {
  const sandbox: Sandbox = {
    backend: "none",
    workspace: root,
    exec: () => Promise.reject(new Error("search tools must not use the sandbox")),
    close: async () => {},
    networkLog: () => [],
  };
  const editor = { ...newEditorState(), openFile };
  return { root, sandbox, editor, testCommand: undefined, commandTimeoutMs: HANG_GUARD_MS };
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "acilab-swe-")));
  root = join(base, "ws");
  outside = join(base, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "leak.py"), "parse_config()\n");
  write(
    "src/config.py",
    "def parse_config(path):\n    raw = read(path)\n    return parse_config_text(raw)\n",
  );
  write("src/main.py", "from config import parse_config\n\nparse_config(ARGS.path)\n");
  write("docs/usage.md", "Call parse_config(path) first.\n");
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("search_dir", () => {
  it("prints the SWE-agent summary: total, files with counts, end marker", async () => {
    const result = await searchDirTool.execute({ term: "parse_config" }, ctx());
    expect(result).toEqual({
      output: [
        'Found 5 matches for "parse_config" in .:',
        "docs/usage.md (1 match)",
        "src/config.py (2 matches)",
        "src/main.py (2 matches)",
        'End of matches for "parse_config" in .',
      ].join("\n"),
    });
    const inSrc = await searchDirTool.execute({ term: "raw", dir: "src" }, ctx());
    expect(inSrc.output).toBe(
      'Found 2 matches for "raw" in src:\nsrc/config.py (2 matches)\nEnd of matches for "raw" in src',
    );
  });

  it("treats the term literally, even when it starts with -", async () => {
    write("notes.txt", "a.b(c) [x]\n--verbose flag\naxb(c)\n");
    expect((await searchDirTool.execute({ term: "a.b(c) [x]" }, ctx())).output).toContain(
      "notes.txt (1 match)",
    );
    expect((await searchDirTool.execute({ term: "--verbose" }, ctx())).output).toContain(
      "notes.txt (1 match)",
    );
  });

  it("caps the list at 50 files and counts all matches above it", async () => {
    for (let i = 0; i < 50; i++) write(`gen/f${String(i).padStart(2, "0")}.py`, "TOKEN\nTOKEN\n");
    const atCap = await searchDirTool.execute({ term: "TOKEN" }, ctx());
    expect(atCap.error).toBeUndefined();
    expect(atCap.output.split("\n")).toHaveLength(52);
    expect(atCap.output.split("\n")[0]).toBe('Found 100 matches for "TOKEN" in .:');
    write("gen/f50.py", "TOKEN\n");
    const over = await searchDirTool.execute({ term: "TOKEN" }, ctx());
    expect(over.error).toBe("too_many_results");
    expect(over.output).toBe(
      'Too many results: 101 matches in 51 files for "TOKEN" in . (the limit is 50 files), so none are listed. ' +
        'Narrow the search: use a more specific term, pass a subdirectory as dir, or use grep with a glob (e.g. "*.py") to search one kind of file.',
    );
  });

  it("says so when nothing matches, and refuses dirs outside or that are files", async () => {
    expect(await searchDirTool.execute({ term: "nothing here", dir: "src" }, ctx())).toEqual({
      output: 'No matches found for "nothing here" in src',
    });
    expect((await searchDirTool.execute({ term: "x", dir: "../" }, ctx())).error).toBe("outside_workspace");
    expect((await searchDirTool.execute({ term: "x", dir: "src/main.py" }, ctx())).error).toBe(
      "invalid_arguments",
    );
    symlinkSync(outside, join(root, "src", "out"));
    expect((await searchDirTool.execute({ term: "x", dir: "src/out" }, ctx())).error).toBe(
      "outside_workspace",
    );
    const all = await searchDirTool.execute({ term: "parse_config()" }, ctx());
    expect(all.output).toBe('No matches found for "parse_config()" in .');
  });
});

describe("search_file", () => {
  it("searches the open file by default and lists Line L: text", async () => {
    const result = await searchFileTool.execute({ term: "parse_config" }, ctx("src/config.py"));
    expect(result).toEqual({
      output: [
        'Found 2 matches for "parse_config" in src/config.py:',
        "Line 1: def parse_config(path):",
        "Line 3:     return parse_config_text(raw)",
        'End of matches for "parse_config" in src/config.py',
      ].join("\n"),
    });
    const explicit = await searchFileTool.execute(
      { term: "ARGS", path: "src/main.py" },
      ctx("src/config.py"),
    );
    expect(explicit.output).toBe(
      'Found 1 match for "ARGS" in src/main.py:\nLine 3: parse_config(ARGS.path)\nEnd of matches for "ARGS" in src/main.py',
    );
  });

  it("asks for view or a path when no file is open", async () => {
    const result = await searchFileTool.execute({ term: "x" }, ctx());
    expect(result.error).toBe("no_file_open");
    expect(result.output).toContain("view");
    expect(result.output).toContain("path");
  });

  it("caps at 50 lines and gives the exact count above", async () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `item(${i})`).join("\n");
    write("big.txt", body(50));
    const atCap = await searchFileTool.execute({ term: "item(" }, ctx("big.txt"));
    expect(atCap.output.split("\n")).toHaveLength(52);
    expect(atCap.output.split("\n")[50]).toBe("Line 50: item(49)");
    write("big.txt", body(51));
    const over = await searchFileTool.execute({ term: "item(" }, ctx("big.txt"));
    expect(over.error).toBe("too_many_results");
    expect(over.output).toContain(
      'Too many results: 51 matching lines for "item(" in big.txt (the limit is 50 lines)',
    );
  });

  it("handles zero results, directories, missing files and paths outside", async () => {
    expect(await searchFileTool.execute({ term: "zzz", path: "src/main.py" }, ctx())).toEqual({
      output: 'No matches found for "zzz" in src/main.py',
    });
    expect((await searchFileTool.execute({ term: "x", path: "src" }, ctx())).error).toBe("is_directory");
    expect((await searchFileTool.execute({ term: "x", path: "src/none.py" }, ctx())).error).toBe("not_found");
    expect((await searchFileTool.execute({ term: "x", path: "../outside/leak.py" }, ctx())).error).toBe(
      "outside_workspace",
    );
    symlinkSync(join(outside, "leak.py"), join(root, "leak.py"));
    expect((await searchFileTool.execute({ term: "parse" }, ctx("leak.py"))).error).toBe("outside_workspace");
  });

  it("rejects a term with a newline", async () => {
    const result = await searchFileTool.execute({ term: "a\nb" }, ctx("src/main.py"));
    expect(result.error).toBe("invalid_arguments");
  });
});
