import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfigDir } from "./config-dir.js";
import { loadMemoryFiles, MEMORY_FILE_MAX_BYTES } from "./memory.js";

let base: string;
let repo: string;
let user: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "acilab-memory-")));
  repo = join(base, "repo");
  user = join(base, "config");
  mkdirSync(repo);
  mkdirSync(user);
});
afterEach(() => {
  chmodSync(base, 0o755);
  rmSync(base, { recursive: true, force: true });
});

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const load = (extra: { cwd?: string; userDir?: string | null } = {}) =>
  loadMemoryFiles({ repo, userDir: null, ...extra });

describe("loadMemoryFiles: which files", () => {
  it("takes the nearest AGENTS.md on the way up from cwd, not every level", () => {
    write(join(repo, "AGENTS.md"), "root rules");
    write(join(repo, "pkg", "AGENTS.md"), "pkg rules");
    mkdirSync(join(repo, "pkg", "src"));
    const memory = load({ cwd: join(repo, "pkg", "src") });
    expect(memory.text).toBe("Project instructions from pkg/AGENTS.md:\npkg rules");
    expect(memory.files.map((f) => f.shown)).toEqual(["pkg/AGENTS.md"]);
    expect(load().text).toBe("Project instructions from AGENTS.md:\nroot rules");
  });

  it("falls back to CLAUDE.md only when no AGENTS.md is on the path", () => {
    write(join(repo, "pkg", "CLAUDE.md"), "claude pkg");
    expect(load({ cwd: join(repo, "pkg") }).text).toBe(
      "Project instructions from pkg/CLAUDE.md:\nclaude pkg",
    );
    write(join(repo, "AGENTS.md"), "agents root");
    // An AGENTS.md further up beats a nearer CLAUDE.md.
    expect(load({ cwd: join(repo, "pkg") }).files[0]?.shown).toBe("AGENTS.md");
  });

  it("puts the user's own file first, then the project's", () => {
    write(join(user, "AGENTS.md"), "always be brief");
    write(join(repo, "AGENTS.md"), "use pnpm");
    const memory = load({ userDir: user });
    expect(memory.text).toBe(
      `User instructions from ${user}/AGENTS.md:\nalways be brief\n\nProject instructions from AGENTS.md:\nuse pnpm`,
    );
    expect(memory.files.map((f) => f.scope)).toEqual(["user", "project"]);
    expect(memory.warnings).toEqual([]);
  });

  it('is empty, without warnings, when there is no file (and "" stays the prefix)', () => {
    expect(load({ userDir: join(base, "missing") })).toEqual({ text: "", files: [], warnings: [] });
  });

  it("refuses a cwd outside the repository, saying where to start", () => {
    expect(() => load({ cwd: base })).toThrow(/not a folder inside the repository/);
  });

  it("warns about a memory file that is a directory or unreadable, and goes on", () => {
    mkdirSync(join(repo, "pkg", "AGENTS.md"), { recursive: true });
    write(join(repo, "AGENTS.md"), "root");
    const memory = load({ cwd: join(repo, "pkg") });
    expect(memory.text).toBe("Project instructions from AGENTS.md:\nroot");
    expect(memory.warnings).toEqual(["pkg/AGENTS.md: it is a directory, not a file; looked further up"]);
  });

  it("warns about a memory file it cannot read (a FIFO, a dangling link, no permission), without blocking", () => {
    execFileSync("mkfifo", [join(repo, "AGENTS.md")]);
    symlinkSync(join(repo, "gone"), join(repo, "CLAUDE.md"));
    const memory = load();
    expect(memory.text).toBe("");
    expect(memory.warnings).toEqual([
      "AGENTS.md: it is not a regular file; looked further up",
      "CLAUDE.md: no such file; looked further up",
    ]);
    if (process.getuid?.() === 0) return; // root reads a mode-000 file anyway
    rmSync(join(repo, "AGENTS.md"));
    write(join(repo, "AGENTS.md"), "root");
    chmodSync(join(repo, "AGENTS.md"), 0o000);
    expect(load().warnings[0]).toMatch(/^AGENTS.md: cannot read it \(EACCES\)/);
  });

  it("refuses a memory file that is a symlink out of the repository", () => {
    write(join(base, "outside.md"), "secret");
    symlinkSync(join(base, "outside.md"), join(repo, "AGENTS.md"));
    const memory = load();
    expect(memory.text).toBe("");
    expect(memory.warnings[0]).toMatch(/^AGENTS.md: it is outside .* \(only files inside it are read\)/);
  });
});

describe("loadMemoryFiles: @ imports", () => {
  it("inlines imported files recursively, relative to the importing file, leaving code alone", () => {
    write(
      join(repo, "AGENTS.md"),
      "Style: @docs/style.md.\nmail me@example.com\n`@not/this`\n```\n@nor/this\n```\nend",
    );
    write(join(repo, "docs", "style.md"), "tabs; see @naming.md\n");
    write(join(repo, "docs", "naming.md"), "camelCase\n");
    const memory = load();
    expect(memory.text).toBe(
      "Project instructions from AGENTS.md:\nStyle: tabs; see camelCase.\nmail me@example.com\n`@not/this`\n```\n@nor/this\n```\nend",
    );
    expect(memory.files[0]?.imports).toEqual([
      join(repo, "docs", "style.md"),
      join(repo, "docs", "naming.md"),
    ]);
    expect(memory.warnings).toEqual([]);
  });

  it("leaves an import outside the repository, a symlink out, or a missing file as is, with a warning each", () => {
    write(join(base, "outside.md"), "secret");
    symlinkSync(join(base, "outside.md"), join(repo, "link.md"));
    write(join(repo, "AGENTS.md"), `a @${join(base, "outside.md")} b @link.md c @gone.md`);
    const memory = load();
    expect(memory.text).toBe(
      `Project instructions from AGENTS.md:\na @${join(base, "outside.md")} b @link.md c @gone.md`,
    );
    expect(memory.text).not.toContain("secret");
    expect(memory.warnings).toHaveLength(3);
    expect(memory.warnings[0]).toMatch(/^AGENTS.md: import @.*outside.md left as is: it is outside /);
    expect(memory.warnings[1]).toMatch(/^AGENTS.md: import @link.md left as is: it is outside /);
    expect(memory.warnings[2]).toBe("AGENTS.md: import @gone.md left as is: no such file");
  });

  it("stops a cycle at the file that closes it, naming the chain", () => {
    write(join(repo, "AGENTS.md"), "top @a.md");
    write(join(repo, "a.md"), "A @b.md");
    write(join(repo, "b.md"), "B @a.md");
    const memory = load();
    expect(memory.text).toBe("Project instructions from AGENTS.md:\ntop A B @a.md");
    expect(memory.warnings).toEqual([
      "b.md: import @a.md left as is: a cycle (AGENTS.md → a.md → b.md → a.md)",
    ]);
  });

  it("follows at most five levels of imports", () => {
    write(join(repo, "AGENTS.md"), "@1.md");
    for (let i = 1; i <= 6; i++) write(join(repo, `${i}.md`), `${i} @${i + 1}.md`);
    const memory = load();
    expect(memory.text).toBe("Project instructions from AGENTS.md:\n1 2 3 4 5 @6.md");
    expect(memory.warnings).toEqual(["5.md: import @6.md left as is: imports nest deeper than 5 levels"]);
  });

  it("lets the user's file import from the user's folder only", () => {
    write(join(user, "extra.md"), "mine");
    write(join(repo, "shared.md"), "theirs");
    write(join(user, "AGENTS.md"), `@extra.md @${join(repo, "shared.md")}`);
    const memory = load({ userDir: user });
    expect(memory.text).toBe(`User instructions from ${user}/AGENTS.md:\nmine @${join(repo, "shared.md")}`);
    expect(memory.warnings[0]).toMatch(/import @.*shared.md left as is: it is outside /);
  });
});

describe("loadMemoryFiles: the cap", () => {
  it("cuts the whole text at 32 KiB on a character boundary, with a marker and a warning", () => {
    write(join(repo, "AGENTS.md"), `big @part.md`);
    write(join(repo, "part.md"), "é".repeat(MEMORY_FILE_MAX_BYTES));
    const memory = load();
    expect(Buffer.byteLength(memory.text)).toBeLessThanOrEqual(MEMORY_FILE_MAX_BYTES);
    expect(memory.text).toMatch(/é\n\[memory files cut at 32768 bytes; the rest was left out\]$/);
    expect(memory.warnings[0]).toMatch(/over the 32768-byte cap; the end was cut/);
  });
});

describe("defaultConfigDir", () => {
  it("prefers ACILAB_CONFIG_DIR, then XDG_CONFIG_HOME/acilab, then ~/.config/acilab", () => {
    expect(defaultConfigDir({ ACILAB_CONFIG_DIR: "/a", XDG_CONFIG_HOME: "/x" })).toBe("/a");
    expect(defaultConfigDir({ ACILAB_CONFIG_DIR: "", XDG_CONFIG_HOME: "/x" })).toBe("/x/acilab");
    expect(defaultConfigDir({})).toMatch(/\.config\/acilab$/);
  });
});
