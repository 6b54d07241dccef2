/**
 * A src-layout repository (`src/<package>/`, tests importing the package by name) mirrors with no
 * install step: the test command puts src/ on pytest's path, and the instance grades elsewhere as is.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mirror } from "../../src/builders/mirror.js";
import { commitFiles, initRepo } from "../../src/builders/testing.js";
import { runInstance } from "../../src/builders/verify.js";

const scratch = mkdtempSync(join(tmpdir(), "acilab-mirror-src-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("tasks mirror on a src layout", () => {
  it("keeps the fix and its instance resolves with the gold patch, with no install", async () => {
    const repo = join(scratch, "lib");
    await initRepo(repo);
    await commitFiles(
      repo,
      {
        "pyproject.toml": '[project]\nname = "shapes"\n',
        "src/shapes/__init__.py": "def area(w, h):\n    return w + h\n",
      },
      "initial",
    );
    await commitFiles(
      repo,
      {
        "src/shapes/__init__.py": "def area(w, h):\n    return w * h\n",
        "tests/test_area.py": "from shapes import area\n\n\ndef test_area():\n    assert area(2, 3) == 6\n",
      },
      "area: multiply",
    );
    const report = await mirror({ repo, out: join(scratch, "out", "t.jsonl") });
    const [instance] = report.instances;
    expect(report.candidates.map((c) => c.reason)).toEqual(["1 FAIL_TO_PASS, 0 PASS_TO_PASS"]);
    if (!instance) throw new Error("no instance");
    expect(instance.test_command).toContain("pythonpath=src");
    const gold = await runInstance(instance, join(scratch, "out"), instance.patch);
    expect(gold.statuses.get("tests/test_area.py::test_area")).toBe("PASSED");
  });

  it("reads the test settings of the commit it mirrors at, not HEAD's", async () => {
    const repo = join(scratch, "moved");
    await initRepo(repo);
    await commitFiles(
      repo,
      { "setup.cfg": "[metadata]\nname = calc\n", "src/calc/__init__.py": "def neg(x):\n    return x\n" },
      "initial",
    );
    const fix = await commitFiles(
      repo,
      {
        "src/calc/__init__.py": "def neg(x):\n    return -x\n",
        "tests/test_neg.py": "from calc import neg\n\n\ndef test_neg():\n    assert neg(2) == -2\n",
      },
      "neg: negate",
    );
    // Later: packaging moves to pyproject.toml and the function is rewritten, so HEAD cannot take the fix.
    await commitFiles(
      repo,
      {
        "setup.cfg": null,
        "pyproject.toml": '[project]\nname = "calc"\n',
        "src/calc/__init__.py": "def neg(x):\n    return 0 - x\n",
      },
      "modernize",
    );
    const report = await mirror({ repo, out: join(scratch, "moved-out", "t.jsonl") });
    const kept = report.candidates.find((c) => c.sha === fix);
    expect(kept?.reason).toBe(
      "1 FAIL_TO_PASS, 0 PASS_TO_PASS, at the fix (its source part no longer reverse-applies at HEAD)",
    );
    const [instance] = report.instances;
    expect(instance?.test_command).toEqual(expect.arrayContaining(["-c", "setup.cfg"]));
  });
});
