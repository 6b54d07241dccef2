/**
 * `tasks mirror` on the shapes real histories have: a fix that came in as a merged pull request, a fix
 * whose code was rewritten later (it no longer reverse-applies at HEAD, so it is mirrored at the fix
 * itself, as SWE-bench does), a test whose id changes from run to run, and a test module that does not
 * import. One repository holds them all; each test reads the same two mirror runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git } from "../workspace/index.js";
import { type BuildReport, mirror } from "./mirror.js";
import { commitFiles, initRepo } from "./testing.js";
import { runInstance } from "./verify.js";

const MATHX = `def clamp01(x):
    return max(0, x)


def sign(x):
    return 1 if x > 0 else -1


def inc(x):
    return x + 2


def half(x):
    return x // 2
`;
const test = (name: string, body: string) => `from mathx import *\n\n\ndef test_${name}():\n${body}\n`;

let scratch: string;
let repo: string;
let auto: BuildReport;
let headOnly: BuildReport;
const sha: Record<string, string> = {};

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "acilab-mirror-history-"));
  repo = join(scratch, "mathx");
  await initRepo(repo);
  let code = MATHX;
  await commitFiles(repo, { "mathx.py": code, "tests/__init__.py": "" }, "initial");
  // 1. A fix made on a branch and merged with a merge commit (a pull request).
  await git(repo, ["checkout", "-q", "-b", "clamp-fix"]);
  code = code.replace("    return max(0, x)", "    return min(1, max(0, x))");
  await commitFiles(
    repo,
    { "mathx.py": code, "tests/test_clamp.py": test("clamp_above", "    assert clamp01(3) == 1") },
    "clamp01: cap at 1",
  );
  await git(repo, ["checkout", "-q", "main"]);
  await git(repo, ["merge", "-q", "--no-ff", "-m", "Merge pull request #1 from clamp-fix", "clamp-fix"]);
  sha.merge = (await git(repo, ["rev-parse", "HEAD"])).trim();
  // 2. A fix whose lines a later commit rewrites: its source part no longer reverse-applies at HEAD.
  code = code.replace("    return 1 if x > 0 else -1", "    return 1 if x > 0 else (0 if x == 0 else -1)");
  sha.rewritten = await commitFiles(
    repo,
    { "mathx.py": code, "tests/test_sign.py": test("sign_of_zero", "    assert sign(0) == 0") },
    "sign: zero has sign 0",
  );
  // 3. A fix whose test file also holds a test named after the clock: a new id every run.
  code = code.replace("    return x + 2", "    return x + 1");
  sha.unstable = await commitFiles(
    repo,
    {
      "mathx.py": code,
      "tests/test_inc.py": `import time\n\nimport pytest\n\n${test("inc", "    assert inc(1) == 2").replace("from mathx import *\n\n\n", "from mathx import inc\n\n\n")}\n\n@pytest.mark.parametrize("stamp", [time.time_ns()])\ndef test_clock(stamp):\n    assert stamp > 0\n`,
    },
    "inc: add one",
  );
  code = code.replace(
    "    return 1 if x > 0 else (0 if x == 0 else -1)",
    "    if x > 0:\n        return 1\n    if x < 0:\n        return -1\n    return 0",
  );
  await commitFiles(repo, { "mathx.py": code }, "sign: spell it out");
  // 4. A fix whose test module imports a package the machine does not have.
  code = code.replace("    return x // 2", "    return x / 2");
  sha.noImport = await commitFiles(
    repo,
    {
      "mathx.py": code,
      "tests/test_half.py": `import not_installed_anywhere\n\n${test("half", "    assert half(3) == 1.5")}`,
    },
    "half: true division",
  );
  auto = await mirror({ repo, out: join(scratch, "auto", "tasks.jsonl") });
  headOnly = await mirror({ repo, out: join(scratch, "head", "tasks.jsonl"), base: "head" });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const outcome = (report: BuildReport, commit: string | undefined) =>
  report.candidates.find((c) => c.sha === commit);

describe("tasks mirror on real histories", () => {
  it("takes a merged pull request as one fix: merge^1..merge", () => {
    const merged = outcome(auto, sha.merge);
    expect(merged?.subject).toBe("Merge pull request #1 from clamp-fix");
    expect(merged?.kept).toBe(true);
    const instance = auto.instances.find((i) => i.instance_id === merged?.instanceId);
    expect(instance?.FAIL_TO_PASS).toEqual(["tests/test_clamp.py::test_clamp_above"]);
    expect(instance?.patch).toContain("+    return min(1, max(0, x))");
  });

  it("mirrors a fix at its own commit when its source part no longer reverse-applies at HEAD", async () => {
    const kept = outcome(auto, sha.rewritten);
    expect(kept?.kept).toBe(true);
    expect(kept?.reason).toBe(
      "1 FAIL_TO_PASS, 0 PASS_TO_PASS, at the fix (its source part no longer reverse-applies at HEAD)",
    );
    const instance = auto.instances.find((i) => i.instance_id === kept?.instanceId);
    expect(instance?.version).toBe(sha.rewritten?.slice(0, 12));
    // The gold patch is the fix as it landed, and it resolves the base; no patch does not.
    expect(instance?.patch).toContain("+    return 1 if x > 0 else (0 if x == 0 else -1)");
    const dir = join(scratch, "auto");
    if (!instance) throw new Error("no instance");
    const gold = await runInstance(instance, dir, instance.patch);
    expect(gold.statuses.get("tests/test_sign.py::test_sign_of_zero")).toBe("PASSED");
    const none = await runInstance(instance, dir, null);
    expect(none.statuses.get("tests/test_sign.py::test_sign_of_zero")).toBe("FAILED");
    // Asked for HEAD only, the same fix is skipped with the reason.
    expect(outcome(headOnly, sha.rewritten)).toMatchObject({
      kept: false,
      reason: "its source part no longer reverse-applies at HEAD",
    });
  });

  it("drops a test whose id changes from run to run, and says so", () => {
    const kept = outcome(auto, sha.unstable);
    expect(kept?.kept).toBe(true);
    expect(kept?.reason).toBe("1 FAIL_TO_PASS, 0 PASS_TO_PASS (1 test(s) dropped: not the same in two runs)");
    const instance = auto.instances.find((i) => i.instance_id === kept?.instanceId);
    expect(instance?.FAIL_TO_PASS).toEqual(["tests/test_inc.py::test_inc"]);
    expect(instance?.PASS_TO_PASS).toEqual([]);
  });

  it("names a test module that does not import, with the exception, instead of 'no test fails'", () => {
    const skipped = outcome(auto, sha.noImport);
    expect(skipped?.kept).toBe(false);
    expect(skipped?.reason).toContain("tests/test_half.py does not import");
    expect(skipped?.reason).toContain("ModuleNotFoundError: No module named 'not_installed_anywhere'");
  });
});
