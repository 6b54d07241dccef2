/**
 * The agent's workspace over a real repository: the copy keeps uncommitted work, the real tree is
 * never written before an apply, checkpoints put files back, and an apply over a tree that changed
 * meanwhile is refused whole with the patch kept.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApplyConflict, applyToTree, sessionChanges } from "./apply.js";
import { CheckpointError, Checkpoints } from "./checkpoints.js";
import { type AgentWorkspace, checkRepo, openAgentWorkspace, RepoError } from "./workspace.js";

const scratch = mkdtempSync(join(tmpdir(), "acilab-agent-ws-"));
// The sandbox user must reach the checkouts made under it.
chmodSync(scratch, 0o711);

function makeRepo(name: string): string {
  const repo = join(scratch, name);
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "src", "calc.py"), "def add(a, b):\n    return a - b\n");
  writeFileSync(join(repo, "README.md"), "calc\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  // Uncommitted work the agent must see: a modified file and an untracked one.
  writeFileSync(join(repo, "README.md"), "calc, with notes\n");
  writeFileSync(join(repo, "notes.txt"), "todo\n");
  return repo;
}

/** Write in the checkout as the agent's tools do (host side, inside the root). */
function agentWrites(ws: AgentWorkspace, path: string, text: string): void {
  writeFileSync(join(ws.root, path), text);
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("checkRepo", () => {
  it("names what is wrong with --repo", () => {
    expect(() => checkRepo(join(scratch, "missing"))).toThrow(/does not exist/);
    const file = join(scratch, "a-file");
    writeFileSync(file, "x");
    expect(() => checkRepo(file)).toThrow(RepoError);
    expect(() => checkRepo(file)).toThrow(/is not a directory/);
  });

  it("refuses a tree it could never apply to", () => {
    // Root may write anywhere a mode allows; /proc/sys refuses even root.
    let dir = "/proc/sys";
    if (process.getuid?.() !== 0) {
      dir = join(scratch, "read-only");
      mkdirSync(dir);
      chmodSync(dir, 0o555);
    }
    expect(() => checkRepo(dir)).toThrow(/not writable/);
  });
});

describe("a session's workspace", () => {
  let repo: string;
  let ws: AgentWorkspace;
  beforeAll(async () => {
    repo = makeRepo("repo");
    ws = await openAgentWorkspace(repo, { scratchDir: scratch });
  });
  afterAll(async () => ws.dispose());

  it("starts from the working tree as the user left it, and never writes it", async () => {
    expect(readFileSync(join(ws.root, "README.md"), "utf8")).toBe("calc, with notes\n");
    expect(readFileSync(join(ws.root, "notes.txt"), "utf8")).toBe("todo\n");
    agentWrites(ws, "src/calc.py", "def add(a, b):\n    return a + b\n");
    expect(readFileSync(join(repo, "src", "calc.py"), "utf8")).toContain("a - b");
    const changes = await sessionChanges(ws.checkout);
    expect(changes.files).toEqual(["src/calc.py"]);
    expect(changes.patch).toContain("+    return a + b");
    // The user's own repository has no new commit.
    const log = execFileSync("git", ["log", "--oneline"], { cwd: repo, encoding: "utf8" });
    expect(log.trim().split("\n")).toHaveLength(1);
  });

  it("takes checkpoints before edits and rewinds to them", async () => {
    const cps = new Checkpoints(ws, join(scratch, "cp1"));
    agentWrites(ws, "src/calc.py", "def add(a, b):\n    return a - b\n"); // back to base
    const first = await cps.take("str_replace src/calc.py", 0);
    agentWrites(ws, "src/calc.py", "v1\n");
    await cps.take("create_file new.py", 2);
    agentWrites(ws, "new.py", "print('new')\n");
    expect((await sessionChanges(ws.checkout)).files).toEqual(["new.py", "src/calc.py"]);
    const restored = await cps.restore(2);
    expect(restored).toEqual(["new.py"]);
    expect(existsSync(join(ws.root, "new.py"))).toBe(false);
    expect(readFileSync(join(ws.root, "src", "calc.py"), "utf8")).toBe("v1\n");
    await cps.restore(first.n);
    expect(readFileSync(join(ws.root, "src", "calc.py"), "utf8")).toContain("a - b");
    expect(cps.all).toEqual([]);
    // The list is on disk: a resumed session rewinds with what an earlier process took.
    await cps.take("edit", 0);
    expect(new Checkpoints(ws, join(scratch, "cp1")).all.map((c) => c.n)).toEqual([1]);
  });

  it("refuses to rewind past the first checkpoint, saying which exist", async () => {
    const cps = new Checkpoints(ws, join(scratch, "cp2"));
    await expect(cps.restore(1)).rejects.toThrow(/no checkpoints to rewind to/);
    await cps.take("a", 0);
    await cps.take("b", 0);
    await expect(cps.restore(0)).rejects.toThrow(CheckpointError);
    await expect(cps.restore(0)).rejects.toThrow(/checkpoints 1–2/);
    await expect(cps.restore(7)).rejects.toThrow(/no checkpoint 7/);
  });
});

describe("applying to the real tree", () => {
  it("writes the agent's changes, uncommitted work of the user kept", async () => {
    const repo = makeRepo("apply-ok");
    const ws = await openAgentWorkspace(repo, { scratchDir: scratch });
    try {
      agentWrites(ws, "src/calc.py", "def add(a, b):\n    return a + b\n");
      agentWrites(ws, "added.txt", "new\n");
      const patchFile = join(scratch, "ok.diff");
      expect(await applyToTree(ws, patchFile)).toEqual(["added.txt", "src/calc.py"]);
      expect(readFileSync(join(repo, "src", "calc.py"), "utf8")).toContain("a + b");
      expect(readFileSync(join(repo, "added.txt"), "utf8")).toBe("new\n");
      expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("calc, with notes\n");
    } finally {
      await ws.dispose();
    }
  });

  it("refuses whole when the user changed a file meanwhile, and loses nothing", async () => {
    const repo = makeRepo("apply-conflict");
    const ws = await openAgentWorkspace(repo, { scratchDir: scratch });
    try {
      agentWrites(ws, "src/calc.py", "agent's version\n");
      agentWrites(ws, "README.md", "agent's readme\n");
      agentWrites(ws, "fresh.txt", "agent's new file\n");
      writeFileSync(join(repo, "src", "calc.py"), "the user's version\n");
      writeFileSync(join(repo, "fresh.txt"), "the user made this too\n");
      const patchFile = join(scratch, "conflict.diff");
      const failure = await applyToTree(ws, patchFile).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ApplyConflict);
      expect((failure as ApplyConflict).files).toEqual([
        { path: "fresh.txt", why: "created since the session started" },
        { path: "src/calc.py", why: "changed since the session started" },
      ]);
      expect((failure as Error).message).toContain(patchFile);
      // Nothing written, not even the file without a conflict; the patch has all three.
      expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("calc, with notes\n");
      expect(readFileSync(join(repo, "src", "calc.py"), "utf8")).toBe("the user's version\n");
      const patch = readFileSync(patchFile, "utf8");
      for (const f of ["README.md", "src/calc.py", "fresh.txt"]) expect(patch).toContain(`b/${f}`);
    } finally {
      await ws.dispose();
    }
  });

  it("works on a plain folder that is not a repository", async () => {
    const dir = join(scratch, "plain");
    mkdirSync(dir);
    writeFileSync(join(dir, "a.txt"), "one\n");
    const ws = await openAgentWorkspace(dir, { scratchDir: scratch });
    try {
      agentWrites(ws, "a.txt", "two\n");
      expect(await applyToTree(ws, join(scratch, "plain.diff"))).toEqual(["a.txt"]);
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("two\n");
      expect(existsSync(join(dir, ".git"))).toBe(false);
    } finally {
      await ws.dispose();
    }
  });
});
