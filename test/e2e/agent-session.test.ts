/**
 * `acilab agent` end to end, from the outside: a real terminal (tmux) running the CLI with a scripted
 * model over a real repository — a question, an edit the user approves, a command the user denies,
 * /diff, /rewind, /quit with --apply — and the same job headless with `-p --output-format
 * stream-json`. The model is scripted; the loop, tools, permission gate, sandbox, checkpoints and the
 * apply are the real ones.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing.js";
import { tsxLoaderPath } from "../../src/tasks/index.js";
import { needing } from "../../src/testing/needs.js";
import { EVENTUALLY } from "../../src/testing/time.js";

const ROOT = join(import.meta.dirname, "..", "..");
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "acilab-agent-e2e-"));
  chmodSync(scratch, 0o711);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function makeRepo(name: string): string {
  const repo = join(scratch, name);
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, "calc.py"), "def add(a, b):\n    return a - b\n");
  writeFileSync(join(repo, "AGENTS.md"), "Run tests with: python3 -m pytest -q\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  return repo;
}

/** The model's side of the conversation, turn by turn. */
const SCRIPT = {
  description: "a question, a fix, a debug line the user rewinds, a command the user denies",
  turns: [
    { thought: "Read the function first.", tool: "view", input: { path: "calc.py" } },
    { say: "add(a, b) returns a - b: it subtracts instead of adding." },
    {
      thought: "Fix the operator.",
      tool: "str_replace",
      input: { path: "calc.py", old: "a - b", new: "a + b" },
    },
    {
      thought: "Add a debug line too.",
      tool: "str_replace",
      input: { path: "calc.py", old: "def add(a, b):\n", new: "def add(a, b):\n    print('debug')\n" },
    },
    { thought: "Clean the build folder.", tool: "shell", input: { command: "rm -rf build" } },
    { say: "Fixed add to return a + b. I did not clean the build folder: you declined it." },
  ],
};

function writeScript(name: string, from = 0): string {
  const file = join(scratch, name);
  writeFileSync(file, JSON.stringify({ ...SCRIPT, turns: SCRIPT.turns.slice(from) }));
  return file;
}

/** Settings and sessions of these runs stay in the scratch folder, not the user's home. */
function isolatedEnv(tag: string): Record<string, string> {
  return {
    ACILAB_CONFIG_DIR: join(scratch, `${tag}-config`),
    ACILAB_STATE_DIR: join(scratch, `${tag}-state`),
  };
}

needing("tmux", !hasTmux && "tmux is not installed").describe("acilab agent in a terminal", () => {
  const socket = `acilab-test-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  afterAll(() => {
    spawnSync("tmux", ["-L", socket, "kill-server"]);
  });

  it("holds a conversation: question, approved edit, rewind, denied command, /diff, --apply", async () => {
    const repo = makeRepo("interactive");
    const script = writeScript("interactive.json");
    const launcher = join(scratch, "launch.mjs");
    writeFileSync(
      launcher,
      `const m = await import(${JSON.stringify(join(ROOT, "src", "cli", "main.ts"))});\nprocess.exitCode = await m.main(process.argv.slice(2));\n`,
    );
    const env = isolatedEnv("tty");
    const transcript = join(scratch, "transcript.txt");
    const command = [
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      process.execPath,
      "--import",
      tsxLoaderPath(),
      launcher,
      "agent",
      "--repo",
      repo,
      "--policy",
      `scripted:${script}`,
      "--repo-map",
      "off",
      "--apply",
      ";",
      "echo",
      "EXIT=$?",
      ";",
      "sleep",
      "600",
    ].join(" ");
    tmux("new-session", "-d", "-x", "160", "-y", "200", "-s", "agent", command);
    const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "agent");
    const waitFor = async (text: string | RegExp) =>
      expect
        .poll(screen, EVENTUALLY)
        .toMatch(typeof text === "string" ? new RegExp(escapeRegExp(text)) : text);
    const type = (line: string) => {
      tmux("send-keys", "-t", "agent", "-l", line);
      tmux("send-keys", "-t", "agent", "Enter");
    };

    await waitFor("Type a request, or /help.");
    type("what does add do?");
    await waitFor("it subtracts instead of adding");
    type("fix it");
    await waitFor(/str_replace calc\.py needs your approval/);
    type("y");
    await waitFor(/allow\?.*\n(.*\n)*.*allow\?/); // the second edit asks too
    type("y");
    await waitFor(/shell: rm -rf build needs your approval/);
    type("n");
    await waitFor("you declined it");
    type("/diff");
    await waitFor("+    print('debug')");
    type("/rewind");
    await waitFor(/2\. before str_replace calc\.py/);
    type("/rewind 2");
    await waitFor("Rewound to checkpoint 2");
    type("/diff");
    await waitFor(/Rewound to checkpoint 2[\s\S]*\+ {4}return a \+ b/);
    type("/quit");
    await waitFor("EXIT=0");
    const text = screen();
    writeFileSync(transcript, text);
    expect(text).toMatch(/Applied: calc\.py/);
    expect(text).toMatch(/Session \S+ saved/);
    // The real tree has the fix and not the rewound debug line; nothing ran `rm`.
    expect(readFileSync(join(repo, "calc.py"), "utf8")).toBe("def add(a, b):\n    return a + b\n");
  });
});

describe("acilab agent -p --output-format stream-json", () => {
  it("streams init, messages, tool results and the result; 'ask' calls are denied and reported", async () => {
    const repo = makeRepo("headless");
    const script = writeScript("headless.json");
    const env = isolatedEnv("print");
    Object.assign(process.env, env);
    try {
      const { code, out, err } = await runCli([
        "agent",
        "-p",
        "what does add do? then fix it",
        "--repo",
        repo,
        "--policy",
        `scripted:${script}`,
        "--output-format",
        "stream-json",
        "--repo-map",
        "off",
        "--allowed-tools",
        "Edit(calc.py)",
        "--apply",
      ]);
      const events = out.split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(events[0]).toMatchObject({ type: "system", subtype: "init", cwd: repo });
      const result = events.at(-1) as Record<string, unknown>;
      // The script's first `say` answers the prompt: one turn, success, nothing changed yet.
      expect(result).toMatchObject({ type: "result", subtype: "success", is_error: false, num_turns: 2 });
      expect(result.result).toMatch(/subtracts/);
      expect(typeof result.session_id).toBe("string");
      expect(events.filter((e) => e.type === "assistant")).toHaveLength(2);
      const user = events.find((e) => e.type === "user") as {
        message: { content: Array<Record<string, unknown>> };
      };
      expect(user.message.content[0]).toMatchObject({
        type: "tool_result",
        tool_name: "Read",
        acilab_tool_name: "view",
        is_error: false,
      });
      expect(err).toBe("");
      expect(code).toBe(0);

      // The same session continued (a new process: the script's remaining turns): both edits are
      // covered by the allow rule, `rm` asks and is denied, headless, with the reason.
      const next = await runCli([
        "agent",
        "-p",
        "fix it",
        "--repo",
        repo,
        "--continue",
        "--policy",
        `scripted:${writeScript("headless-rest.json", 2)}`,
        "--output-format",
        "json",
        "--repo-map",
        "off",
        "--allowed-tools",
        "Edit(calc.py)",
        "--apply",
      ]);
      expect(next.code).toBe(0);
      const r = JSON.parse(next.out) as Record<string, unknown> & {
        permission_denials: Array<{ tool_name: string; reason: string }>;
        acilab: { changed_files: string[]; applied: boolean; checkpoints: number };
      };
      expect(r.permission_denials).toEqual([
        {
          tool_name: "Bash",
          acilab_tool_name: "shell",
          tool_input: { command: "rm -rf build" },
          reason: expect.stringMatching(/headless/),
        },
      ]);
      expect(r.acilab).toMatchObject({ changed_files: ["calc.py"], applied: true, checkpoints: 2 });
      expect(readFileSync(join(repo, "calc.py"), "utf8")).toBe(
        "def add(a, b):\n    print('debug')\n    return a + b\n",
      );
    } finally {
      for (const k of Object.keys(env)) delete process.env[k];
    }
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
