/**
 * `acilab agent -p` against the inputs a user gets wrong and the hooks a user writes: each bad input
 * is exit 2 with a message that says what to fix; hooks block, add context and send the agent back;
 * a repository's own hooks wait for trust; an apply over a tree that changed meanwhile is refused
 * whole. Scripted model, real loop, sandbox, hooks (sh on the host) and git.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing.js";

let scratch: string;
let n = 0;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "acilab-agent-cli-"));
  chmodSync(scratch, 0o711);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Settings and sessions of these runs stay in the scratch folder, not the user's home.
beforeEach(() => {
  n++;
  process.env.ACILAB_CONFIG_DIR = join(scratch, `config-${n}`);
  process.env.ACILAB_STATE_DIR = join(scratch, `state-${n}`);
});
afterEach(() => {
  delete process.env.ACILAB_CONFIG_DIR;
  delete process.env.ACILAB_STATE_DIR;
});

function makeRepo(): string {
  const repo = join(scratch, `repo-${n}`);
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, "calc.py"), "def add(a, b):\n    return a - b\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  return repo;
}

function script(turns: unknown[]): string {
  const file = join(scratch, `script-${n}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ turns }));
  return file;
}

function settingsFile(settings: unknown): string {
  const file = join(scratch, `settings-${n}.json`);
  writeFileSync(file, JSON.stringify(settings, null, 2));
  return file;
}

const FIX = { tool: "str_replace", input: { path: "calc.py", old: "a - b", new: "a + b" } };

async function agent(repo: string, args: string[]) {
  const r = await runCli([
    "agent",
    "-p",
    "fix add",
    "--repo",
    repo,
    "--repo-map",
    "off",
    "--output-format",
    "json",
    ...args,
  ]);
  const result = r.code !== 2 && r.out ? (JSON.parse(r.out) as Record<string, unknown>) : undefined;
  return { ...r, result };
}

describe("bad input: exit 2 and what to fix", () => {
  it("names a malformed settings file with its line and column", async () => {
    const repo = makeRepo();
    mkdirSync(join(repo, ".acilab"));
    writeFileSync(join(repo, ".acilab", "settings.json"), '{\n  "permissions": { "allow": ["Bash"], }\n}\n');
    const r = await agent(repo, ["--policy", `scripted:${script([{ say: "x" }])}`]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\.acilab\/settings\.json:2:\d+: not valid JSON/);
  });

  it("names a rule with bad syntax and shows valid ones", async () => {
    const repo = makeRepo();
    const r = await agent(repo, [
      "--policy",
      `scripted:${script([{ say: "x" }])}`,
      "--allowed-tools",
      "Bash(npm",
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/Bash\(npm/);
    expect(r.err).toMatch(/Bash\(npm test:\*\)/);
  });

  it("refuses a --repo that is not a directory", async () => {
    const file = join(scratch, "not-a-dir");
    writeFileSync(file, "x");
    const r = await agent(file, ["--policy", `scripted:${script([{ say: "x" }])}`]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is not a directory/);
  });

  it("refuses to rewind past the first checkpoint, listing what exists", async () => {
    const repo = makeRepo();
    const first = await agent(repo, [
      "--policy",
      `scripted:${script([FIX, { say: "fixed" }])}`,
      "--permission-mode",
      "acceptEdits",
    ]);
    expect(first.code).toBe(0);
    const r = await runCli([
      "agent",
      "-p",
      "--repo",
      repo,
      "--continue",
      "--rewind",
      "9",
      "--policy",
      `scripted:${script([{ say: "x" }])}`,
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no checkpoint 9: this session has checkpoints 1–1/);
    // A rewind that exists puts the file back in the session, and says so.
    const ok = await runCli([
      "agent",
      "-p",
      "--repo",
      repo,
      "--continue",
      "--rewind",
      "1",
      "--policy",
      `scripted:${script([{ say: "x" }])}`,
    ]);
    expect(ok.code).toBe(0);
    expect(ok.err).toMatch(/rewound session \S+ to checkpoint 1 \(before str_replace calc\.py\): calc\.py/);
  });
});

describe("hooks in acilab agent", () => {
  it("blocks a call with exit 2, and the model reads the hook's reason", async () => {
    const repo = makeRepo();
    const settings = settingsFile({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: "echo 'no shell in this repo' >&2; exit 2" }],
          },
        ],
      },
    });
    const r = await agent(repo, [
      "--policy",
      `scripted:${script([{ tool: "shell", input: { command: "ls" } }, { say: "could not list" }])}`,
      "--settings",
      settings,
      "--permission-mode",
      "bypassPermissions",
    ]);
    expect(r.code).toBe(0);
    expect(r.result?.permission_denials).toEqual([
      {
        tool_name: "Bash",
        acilab_tool_name: "shell",
        tool_input: { command: "ls" },
        reason: "blocked by a PreToolUse hook: no shell in this repo",
      },
    ]);
  });

  it('fires a Claude Code hook that checks tool_name == "Bash" on its stdin, and blocks the shell command', async () => {
    const repo = makeRepo();
    // As written for Claude Code: no matcher; the hook reads the call's JSON from stdin itself.
    const check = `python3 -c 'import json, sys; call = json.load(sys.stdin); call["tool_name"] == "Bash" and (print("Bash is off limits: " + call["tool_input"]["command"], file=sys.stderr), sys.exit(2))'`;
    const settings = settingsFile({
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: check }] }] },
    });
    const r = await agent(repo, [
      "--policy",
      `scripted:${script([
        { tool: "view", input: { path: "calc.py" } },
        { tool: "shell", input: { command: "touch hooked" } },
        { say: "blocked" },
      ])}`,
      "--settings",
      settings,
      "--permission-mode",
      "bypassPermissions",
    ]);
    expect(r.code).toBe(0);
    // The view (Read) went through; the shell command (Bash) was blocked and never ran.
    expect(r.result?.permission_denials).toEqual([
      {
        tool_name: "Bash",
        acilab_tool_name: "shell",
        tool_input: { command: "touch hooked" },
        reason: "blocked by a PreToolUse hook: Bash is off limits: touch hooked",
      },
    ]);
    // Nothing ran: the session's workspace has no "hooked" file to show.
    expect(r.result?.acilab).toMatchObject({ changed_files: [] });
  });

  it("lets a Stop hook send the agent back once, with its reason", async () => {
    const repo = makeRepo();
    const marker = join(scratch, `stopped-once-${n}`);
    const settings = settingsFile({
      hooks: {
        Stop: [
          {
            hooks: [
              {
                type: "command",
                command: `if [ -e ${marker} ]; then exit 0; fi; touch ${marker}; echo 'run the tests before you stop' >&2; exit 2`,
              },
            ],
          },
        ],
      },
    });
    const r = await agent(repo, [
      "--policy",
      `scripted:${script([{ say: "done, untested" }, { say: "tests pass", when: { contains: "run the tests before you stop" } }])}`,
      "--settings",
      settings,
    ]);
    expect(r.code).toBe(0);
    expect(r.result?.result).toBe("tests pass");
    expect(r.err).toMatch(/Stop hook sent the agent back: run the tests before you stop/);
  });

  it("runs a repository's own hooks only after the user trusts it", async () => {
    const repo = makeRepo();
    const marker = join(scratch, `project-hook-ran-${n}`);
    mkdirSync(join(repo, ".acilab"));
    writeFileSync(
      join(repo, ".acilab", "settings.json"),
      JSON.stringify({
        hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }] },
      }),
    );
    const untrusted = await agent(repo, ["--policy", `scripted:${script([{ say: "hi" }])}`]);
    expect(untrusted.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(untrusted.err).toMatch(
      /defines 1 hook; they were not used because the repository is not trusted — run `acilab agent trust`/,
    );
    const trust = await runCli(["agent", "trust", "--repo", repo]);
    expect(trust.code).toBe(0);
    const trusted = await agent(repo, ["--policy", `scripted:${script([{ say: "hi" }])}`]);
    expect(trusted.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

describe("applying to a tree that changed meanwhile", () => {
  it("refuses whole, names the file, keeps the patch, exit 1", async () => {
    const repo = makeRepo();
    // A text file: no lint guard between the edit and the hook (on a loaded machine a Python
    // file's lint check is one more process that may be slow).
    writeFileSync(join(repo, "notes.txt"), "todo: add\n");
    // A PostToolUse hook (on the host) edits the user's real file after the agent's edit: the user
    // working in their editor while the agent works.
    const settings = settingsFile({
      hooks: {
        PostToolUse: [
          {
            matcher: "Edit",
            hooks: [{ type: "command", command: `printf 'mine\\n' > ${join(repo, "notes.txt")}` }],
          },
        ],
      },
    });
    const r = await agent(repo, [
      "--policy",
      `scripted:${script([{ tool: "str_replace", input: { path: "notes.txt", old: "todo", new: "done" } }, { say: "noted" }])}`,
      "--settings",
      settings,
      "--permission-mode",
      "acceptEdits",
      "--apply",
    ]);
    expect(r.code, `${r.err}\n---stdout---\n${r.out ?? ""}`).toBe(1);
    expect(r.err).toMatch(/not applied: 1 file\(s\)[\s\S]*notes\.txt: changed since the session started/);
    expect(readFileSync(join(repo, "notes.txt"), "utf8")).toBe("mine\n");
    const acilab = r.result?.acilab as { applied: boolean; patch: string };
    expect(acilab.applied).toBe(false);
    expect(readFileSync(acilab.patch, "utf8")).toContain("+done: add");
  });
});
