import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitFiles, initRepo } from "../../src/builders/testing.js";
import { tasksBuildCommand } from "../../src/cli/tasks-build.js";
import { runCli } from "../../src/cli/testing.js";

let scratch: string;
let repo: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "acilab-tasks-build-cli-"));
  repo = join(scratch, "calc");
  await initRepo(repo);
  await commitFiles(
    repo,
    { "calc.py": "def inc(x):\n    return x + 2\n", "tests/__init__.py": "" },
    "initial",
  );
  await commitFiles(
    repo,
    {
      "calc.py": "def inc(x):\n    return x + 1\n",
      "tests/test_calc.py": "from calc import inc\n\n\ndef test_inc():\n    assert inc(1) == 2\n",
    },
    "inc: add one",
  );
  await commitFiles(
    repo,
    {
      "dec.py": "def dec(x):\n    return x - 1\n",
      "tests/test_dec.py": "from dec import dec\n\n\ndef test_dec():\n    assert dec(1) == 0\n",
    },
    "dec: new",
  );
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function mirrorWith(tty: boolean, ...more: string[]) {
  const lines: string[] = [];
  const raw: string[] = [];
  const code = await tasksBuildCommand(
    [
      "mirror",
      "--repo",
      repo,
      "--out",
      join(scratch, `out-${tty}-${more.length}`, "t.jsonl"),
      "--base",
      "head",
      ...more,
    ],
    () => undefined,
    (l) => lines.push(l),
    { tty, write: (t) => raw.push(t) },
  );
  return { code, lines, raw };
}

describe("tasks mirror's progress", () => {
  it("numbers each candidate's line where nothing can be redrawn", async () => {
    const { code, lines } = await mirrorWith(false);
    expect(code).toBe(0);
    expect(lines.find((l) => l.startsWith("[2/2] kept "))).toMatch(
      /inc: add one — 1 FAIL_TO_PASS, 0 PASS_TO_PASS$/,
    );
  });

  it("draws a bar with the count and how many were kept on a terminal", async () => {
    const { code, raw } = await mirrorWith(true);
    expect(code).toBe(0);
    expect(raw.join("")).toMatch(/mirroring 2\/2 ▕█+▏ kept 1 · errors 0 · \d+:\d\d elapsed/);
  });

  it("decides only the newest --max-candidates", async () => {
    const { lines } = await mirrorWith(false, "--max-candidates", "1");
    expect(lines.filter((l) => /^\[\d+\/\d+\]/.test(l))).toEqual([
      expect.stringMatching(/^\[1\/1\] (kept|skipped) +\w+ dec: new — /),
    ]);
  });

  it("refuses a --max-candidates or --test-timeout that is not above 0", async () => {
    for (const bad of [
      ["--max-candidates", "0"],
      ["--test-timeout", "0"],
    ])
      await expect(
        tasksBuildCommand(
          ["mirror", "--repo", repo, ...bad],
          () => undefined,
          () => undefined,
        ),
      ).rejects.toThrow(`${bad[0]} must be a number above 0`);
  });

  it("refuses an unknown --base", async () => {
    await expect(
      tasksBuildCommand(
        ["mirror", "--repo", repo, "--base", "tip"],
        () => undefined,
        () => undefined,
      ),
    ).rejects.toThrow('--base must be auto, head or fix, got "tip"');
  });

  it("says a --repo that is not there is not there (not that git is missing)", async () => {
    const r = await runCli(["tasks", "mirror", "--repo", join(scratch, "no-such-repo")]);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(`--repo ${join(scratch, "no-such-repo")}: no such folder`);
    expect(r.err).not.toMatch(/git is not installed/);
  });

  it("says a missing instances file is missing, not an unknown task", async () => {
    const r = await runCli(["tasks", "validate", join(scratch, "none.jsonl")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("none.jsonl: no such instances file");
  });
});
