import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../sandbox/index.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { newEditorState, type ToolContext } from "../types.js";
import { createSearchTools, grepTool, MAX_SEARCH_RESULTS } from "./index.js";

let base: string;
let root: string;
let outside: string;

function write(rel: string, text: string): void {
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
  base = realpathSync(mkdtempSync(join(tmpdir(), "acilab-grep-")));
  root = join(base, "ws");
  outside = join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  write("src/app.py", "import os\n\ndef handler(event):\n    return Handler(event)\n");
  write("src/util.py", "def helper():\n    return 1\n");
  write("README.md", "# Demo\nCall handler() to start.\n");
  writeFileSync(join(outside, "secret.py"), "def handler(): pass  # outside\n");
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("grep", () => {
  it("lists path:line:text sorted by path, then line", async () => {
    const result = await grepTool.execute({ pattern: "handler|helper" }, ctx());
    expect(result.error).toBeUndefined();
    expect(result.output).toBe(
      [
        "README.md:2:Call handler() to start.",
        "src/app.py:3:def handler(event):",
        "src/util.py:1:def helper():",
      ].join("\n"),
    );
  });

  it("honours ignore_case, path and glob", async () => {
    const c = ctx();
    const ci = await grepTool.execute({ pattern: "handler\\(event", ignore_case: true, path: "src" }, c);
    expect(ci.output).toBe("src/app.py:3:def handler(event):\nsrc/app.py:4:    return Handler(event)");
    const byName = await grepTool.execute({ pattern: "handler", glob: "*.md" }, c);
    expect(byName.output).toBe("README.md:2:Call handler() to start.");
    const byPath = await grepTool.execute({ pattern: "def", glob: "src/u*.py" }, c);
    expect(byPath.output).toBe("src/util.py:1:def helper():");
    const excluded = await grepTool.execute({ pattern: "handler", glob: "!*.md" }, c);
    expect(excluded.output).toBe("src/app.py:3:def handler(event):");
    const inFile = await grepTool.execute({ pattern: "return", path: "src/util.py" }, c);
    expect(inFile.output).toBe("src/util.py:2:    return 1");
  });

  it("lists exactly the cap, and above it lists nothing but the exact count", async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `needle ${i}`).join("\n");
    write("many/a.txt", lines(30));
    write("many/b.txt", lines(MAX_SEARCH_RESULTS - 30));
    const atCap = await grepTool.execute({ pattern: "needle", path: "many" }, ctx());
    expect(atCap.error).toBeUndefined();
    expect(atCap.output.split("\n")).toHaveLength(MAX_SEARCH_RESULTS);
    expect(atCap.output.split("\n")[0]).toBe("many/a.txt:1:needle 0");
    write("many/c.txt", "needle again\n");
    const over = await grepTool.execute({ pattern: "needle", path: "many" }, ctx());
    expect(over.error).toBe("too_many_results");
    expect(over.output).toContain("51 matching lines in 3 files");
    expect(over.output).toContain("the limit is 50 lines");
    expect(over.output).toMatch(/more specific pattern.*path.*glob/);
    expect(over.output).not.toContain("many/a.txt");
    // Counting through a glob: rg's type filter (exact) and our own path filter give the same count,
    // and a file the glob leaves out is not counted.
    write("many/d.md", lines(5));
    for (const glob of ["*.txt", "many/*.txt", "**/*.txt", "!*.md"]) {
      const viaGlob = await grepTool.execute({ pattern: "needle", glob }, ctx());
      expect(viaGlob.output, glob).toContain("51 matching lines in 3 files");
    }
  });

  it("takes the cap from the factory", async () => {
    const { grep } = createSearchTools({ maxResults: 1 });
    const result = await grep.execute({ pattern: "def" }, ctx());
    expect(result.error).toBe("too_many_results");
    expect(result.output).toContain(
      'Too many results: 2 matching lines in 2 files for regex "def" in . (the limit is 1 line)',
    );
  });

  it("says so plainly when nothing matches", async () => {
    const result = await grepTool.execute({ pattern: "no_such_name", path: "src" }, ctx());
    expect(result).toEqual({ output: 'No matches found for regex "no_such_name" in src' });
  });

  it("treats a pattern starting with - as a pattern", async () => {
    write("flags.txt", "run with -v for more\n--help prints usage\n");
    const result = await grepTool.execute({ pattern: "-v|--help" }, ctx());
    expect(result.output).toBe("flags.txt:1:run with -v for more\nflags.txt:2:--help prints usage");
  });

  it("quotes rg's reason for an invalid regex and suggests escaping or search_dir", async () => {
    const result = await grepTool.execute({ pattern: "handler(" }, ctx());
    expect(result.error).toBe("invalid_arguments");
    expect(result.output).toContain("unclosed group");
    expect(result.output).toContain("backslash");
    expect(result.output).toContain("search_dir");
  });

  it("cuts long lines at 300 characters with a marker", async () => {
    write("min.js", `${"a".repeat(5_000)}needle${"b".repeat(5_000)}\nshort needle\n`);
    const result = await grepTool.execute({ pattern: "needle", path: "min.js" }, ctx());
    const [first, second] = result.output.split("\n");
    expect(first).toBe(`min.js:1:${"a".repeat(300)} [... line cut at 300 characters]`);
    expect(second).toBe("min.js:2:short needle");
  });

  it("respects .gitignore without a .git directory, and a glob cannot bring ignored files back", async () => {
    write(".gitignore", "node_modules/\n*.log\n");
    write("node_modules/lib/index.js", "def handler(): pass\n");
    write("debug.log", "handler crashed\n");
    const c = ctx();
    expect((await grepTool.execute({ pattern: "handler", glob: "*.log" }, c)).output).toBe(
      'No matches found for regex "handler" (glob "*.log") in .',
    );
    const all = await grepTool.execute({ pattern: "handler" }, c);
    expect(all.output).not.toContain("node_modules");
    expect(all.output).not.toContain("debug.log");
    // Naming an ignored directory is asking for it, as with rg itself.
    const named = await grepTool.execute({ pattern: "handler", path: "node_modules" }, c);
    expect(named.output).toBe("node_modules/lib/index.js:1:def handler(): pass");
  });

  it("respects .ignore and .git/info/exclude in a git repository", async () => {
    execFileSync("git", ["init", "-q"], { cwd: root });
    write(".ignore", "src/util.py\n");
    write(".git/info/exclude", "README.md\n");
    const result = await grepTool.execute({ pattern: "handler|helper" }, ctx());
    expect(result.output).toBe("src/app.py:3:def handler(event):");
  });

  it("searches hidden files but never .git", async () => {
    execFileSync("git", ["init", "-q"], { cwd: root });
    write(".env.example", "HANDLER_URL=x\n");
    write(".github/workflows/ci.yml", "run: handler\n");
    write(".git/hooks/handler.sample", "HANDLER\n");
    const result = await grepTool.execute(
      { pattern: "handler", ignore_case: true, glob: "*.{example,yml}" },
      ctx(),
    );
    expect(result.output).toBe(".env.example:1:HANDLER_URL=x\n.github/workflows/ci.yml:1:run: handler");
    const refused = await grepTool.execute({ pattern: "x", path: ".git" }, ctx());
    expect(refused.error).toBe("invalid_arguments");
  });

  it("does not follow a symlink that points outside, and refuses paths outside", async () => {
    symlinkSync(outside, join(root, "src", "linked"));
    symlinkSync(join(outside, "secret.py"), join(root, "secret.py"));
    const c = ctx();
    const result = await grepTool.execute({ pattern: "outside" }, c);
    expect(result.output).toBe('No matches found for regex "outside" in .');
    expect((await grepTool.execute({ pattern: "x", path: "../" }, c)).error).toBe("outside_workspace");
    expect((await grepTool.execute({ pattern: "x", path: "src/linked" }, c)).error).toBe("outside_workspace");
    expect((await grepTool.execute({ pattern: "x", path: outside }, c)).error).toBe("outside_workspace");
  });

  it("rejects a missing path and a newline in the pattern with guidance", async () => {
    const missing = await grepTool.execute({ pattern: "x", path: "nope" }, ctx());
    expect(missing.error).toBe("not_found");
    expect(missing.output).toContain("find_file");
    expect((await grepTool.execute({ pattern: "a\nb" }, ctx())).error).toBe("invalid_arguments");
  });

  it("tells the user to install ripgrep when rg is missing", async () => {
    const { grep } = createSearchTools({ rgPath: join(base, "no-such-rg") });
    const result = await grep.execute({ pattern: "x" }, ctx());
    expect(result.error).toBe("command_failed");
    expect(result.output).toContain("apt-get install ripgrep");
    expect(result.output).toContain("make");
  });
});
