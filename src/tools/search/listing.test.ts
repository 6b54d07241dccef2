import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../sandbox/index.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { newEditorState, type ToolContext } from "../types.js";
import { createSearchTools, findFileTool, globTool } from "./index.js";

let base: string;
let root: string;
let outside: string;

function write(rel: string, text = "x\n"): void {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

function ctx(): ToolContext {
  const sandbox: Sandbox = {
    backend: "none",
    workspace: root,
    exec: () => Promise.reject(new Error("search tools must not use the sandbox")),
    close: async () => {},
    networkLog: () => [],
  };
  return { root, sandbox, editor: newEditorState(), testCommand: undefined, commandTimeoutMs: HANG_GUARD_MS };
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "acilab-listing-")));
  root = join(base, "ws");
  outside = join(base, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "core.py"), "secret\n");
  for (const rel of [
    "src/pkg/core.py",
    "src/pkg/util.py",
    "tests/core.py",
    "tests/test_util.py",
    "README.md",
  ]) {
    write(rel);
  }
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("find_file", () => {
  it("lists files by name with the SWE-agent header, sorted", async () => {
    const result = await findFileTool.execute({ name: "core.py" }, ctx());
    expect(result).toEqual({ output: 'Found 2 matches for "core.py" in .:\nsrc/pkg/core.py\ntests/core.py' });
    const inDir = await findFileTool.execute({ name: "*.py", dir: "tests" }, ctx());
    expect(inDir.output).toBe('Found 2 matches for "*.py" in tests:\ntests/core.py\ntests/test_util.py');
    const one = await findFileTool.execute({ name: "test_*.{py,pyi}" }, ctx());
    expect(one.output).toBe('Found 1 match for "test_*.{py,pyi}" in .:\ntests/test_util.py');
  });

  it("reports zero results as an observation", async () => {
    const result = await findFileTool.execute({ name: "*.rs", dir: "src" }, ctx());
    expect(result).toEqual({ output: 'No matches found for "*.rs" in src' });
  });

  it("lists 50 files but refuses 51 with the exact count", async () => {
    for (let i = 0; i < 50; i++) write(`gen/m${String(i).padStart(2, "0")}.txt`);
    const atCap = await findFileTool.execute({ name: "*.txt" }, ctx());
    expect(atCap.output.split("\n")).toHaveLength(51);
    expect(atCap.output.split("\n")[1]).toBe("gen/m00.txt");
    write("gen/m50.txt");
    const over = await findFileTool.execute({ name: "*.txt" }, ctx());
    expect(over.error).toBe("too_many_results");
    expect(over.output).toBe(
      'Too many results: 51 matching files for "*.txt" in . (the limit is 50 files), so none are listed. ' +
        'Narrow the search: use a more specific name (e.g. "test_*.py" rather than "*.py"), or pass dir to search one directory.',
    );
  });

  it("hides ignored files (no .git needed), shows dotfiles, never .git", async () => {
    write(".gitignore", "build/\n*.pyc\n");
    write("build/core.py");
    write("src/pkg/core.pyc");
    write(".config/core.py");
    const expected = 'Found 3 matches for "core.py*" in .:\n.config/core.py\nsrc/pkg/core.py\ntests/core.py';
    expect((await findFileTool.execute({ name: "core.py*" }, ctx())).output).toBe(expected);
    execFileSync("git", ["init", "-q"], { cwd: root });
    expect((await findFileTool.execute({ name: "core.py*" }, ctx())).output).toBe(expected);
    const git = await findFileTool.execute({ name: "HEAD" }, ctx());
    expect(git.output).toBe('No matches found for "HEAD" in .');
  });

  it("does not follow symlinks out and refuses dirs outside", async () => {
    symlinkSync(outside, join(root, "src", "out"));
    const result = await findFileTool.execute({ name: "core.py" }, ctx());
    expect(result.output).not.toContain("out/");
    const refused = await findFileTool.execute({ name: "core.py", dir: "../" }, ctx());
    expect(refused.error).toBe("outside_workspace");
    expect((await findFileTool.execute({ name: "core.py", dir: "src/out" }, ctx())).error).toBe(
      "outside_workspace",
    );
  });

  it("points path patterns to glob and rejects a file as dir", async () => {
    const slash = await findFileTool.execute({ name: "src/*.py" }, ctx());
    expect(slash.error).toBe("invalid_arguments");
    expect(slash.output).toContain("glob");
    expect((await findFileTool.execute({ name: "x", dir: "README.md" }, ctx())).error).toBe(
      "invalid_arguments",
    );
  });
});

describe("glob", () => {
  it("matches paths relative to path, sorted, with ** spanning directories", async () => {
    const c = ctx();
    expect((await globTool.execute({ pattern: "src/**/*.py" }, c)).output).toBe(
      "src/pkg/core.py\nsrc/pkg/util.py",
    );
    expect((await globTool.execute({ pattern: "**/test_*.py" }, c)).output).toBe("tests/test_util.py");
    expect((await globTool.execute({ pattern: "*.md" }, c)).output).toBe("README.md");
    expect((await globTool.execute({ pattern: "*.py" }, c)).output).toBe(
      'No matches found for glob "*.py" in .',
    );
    expect((await globTool.execute({ pattern: "pkg/c*.py", path: "src" }, c)).output).toBe("src/pkg/core.py");
    expect((await globTool.execute({ pattern: "{src,tests}/**/core.py" }, c)).output).toBe(
      "src/pkg/core.py\ntests/core.py",
    );
  });

  it("keeps ignored files out even when the pattern names them", async () => {
    write(".gitignore", "*.log\nvendor/\n");
    write("logs/app.log");
    write("vendor/lib/x.py");
    write(".github/ci.yml");
    const c = ctx();
    expect((await globTool.execute({ pattern: "**/*.log" }, c)).output).toBe(
      'No matches found for glob "**/*.log" in .',
    );
    expect((await globTool.execute({ pattern: "**/*.py" }, c)).output).not.toContain("vendor");
    expect((await globTool.execute({ pattern: "**/*.yml" }, c)).output).toBe(".github/ci.yml");
  });

  it("refuses 51 files with the exact count and a narrowing hint; the cap is configurable", async () => {
    for (let i = 0; i < 51; i++) write(`gen/f${i}.ts`);
    const over = await globTool.execute({ pattern: "gen/*.ts" }, ctx());
    expect(over.error).toBe("too_many_results");
    expect(over.output).toContain("51 matching files");
    expect(over.output).toContain("set path to a subdirectory");
    const { glob } = createSearchTools({ maxResults: 100 });
    expect((await glob.execute({ pattern: "gen/*.ts" }, ctx())).output.split("\n")).toHaveLength(51);
  });

  it("does not list through symlinks, and refuses .. and outside paths", async () => {
    symlinkSync(outside, join(root, "linked"));
    symlinkSync(join(root, "src"), join(root, "src-link"));
    const c = ctx();
    expect((await globTool.execute({ pattern: "linked/*.py" }, c)).output).toContain("No matches found");
    expect((await globTool.execute({ pattern: "src-link/**" }, c)).output).toContain("No matches found");
    expect((await globTool.execute({ pattern: "**/core.py" }, c)).output).toBe(
      "src/pkg/core.py\ntests/core.py",
    );
    expect((await globTool.execute({ pattern: "../outside/*" }, c)).error).toBe("invalid_arguments");
    expect((await globTool.execute({ pattern: "*", path: "../" }, c)).error).toBe("outside_workspace");
  });

  it("reports an invalid glob", async () => {
    const result = await globTool.execute({ pattern: "src/[ab" }, ctx());
    expect(result.error).toBe("invalid_arguments");
    expect(result.output).toContain('unclosed "["');
  });
});
