import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitFiles, initRepo } from "../builders/testing.js";
import { tasksBuildCommand } from "./tasks-build.js";

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
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function mirrorWith(tty: boolean) {
  const lines: string[] = [];
  const raw: string[] = [];
  const code = await tasksBuildCommand(
    ["mirror", "--repo", repo, "--out", join(scratch, `out-${tty}`, "t.jsonl"), "--base", "head"],
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
    expect(lines.find((l) => l.startsWith("[1/1] kept "))).toMatch(
      /inc: add one — 1 FAIL_TO_PASS, 0 PASS_TO_PASS$/,
    );
  });

  it("draws a bar with the count and how many were kept on a terminal", async () => {
    const { code, raw } = await mirrorWith(true);
    expect(code).toBe(0);
    expect(raw.join("")).toMatch(/mirroring 1\/1 ▕█+▏ kept 1 · errors 0 · \d+:\d\d elapsed/);
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
});
