import { afterEach, describe, expect, it } from "vitest";
import { clearLintCache, lintFile } from "./lint.js";
import { setFlake8PathForTesting, setPythonWorkerForTesting } from "./python.js";

afterEach(() => {
  setFlake8PathForTesting(undefined);
  setPythonWorkerForTesting(undefined);
  clearLintCache();
});

describe("lintFile for Python (flake8's codes)", () => {
  it("reports undefined names, duplicate arguments and __all__ entries", async () => {
    const report = await lintFile("pkg/m.py", "__all__ = ['gone']\n\ndef f(a, a):\n    return b\n");
    expect(report.linter).toBe("flake8");
    expect(report.engine).toMatch(/^lint worker \(pyflakes \d/);
    expect(report.namesChecked).toBe(true);
    expect(report.issues.map((i) => `${i.line} ${i.code} ${i.message}`)).toEqual([
      "1 F822 undefined name 'gone' in __all__",
      "3 F831 duplicate argument 'a' in function definition",
      "4 F821 undefined name 'b'",
    ]);
  });

  it("reports a syntax error as E999 and then checks no names", async () => {
    const report = await lintFile("m.py", "def f(:\n    return b\n");
    expect(report.issues).toHaveLength(1);
    expect(report.issues[0]).toMatchObject({ line: 1, code: "E999", syntax: true });
    expect(report.namesChecked).toBe(false);
  });

  it("ignores style the guardrail does not select", async () => {
    const report = await lintFile("m.py", "import os\nx=1;y  =  2\n");
    expect(report.issues).toEqual([]);
  });

  it("falls back to a flake8 process, with the same report, when the lint worker cannot run", async () => {
    const source = "__all__ = ['gone']\n\ndef f(a, a):\n    return b\n";
    const viaWorker = await lintFile("m.py", source);
    clearLintCache();
    setPythonWorkerForTesting(null);
    const viaFlake8 = await lintFile("m.py", source);
    expect(viaFlake8.engine).toBe("flake8 process");
    expect({ ...viaFlake8, engine: "" }).toEqual({ ...viaWorker, engine: "" });
  });

  it("falls back to a syntax-only ast check and says so when neither the worker nor flake8 can run", async () => {
    setPythonWorkerForTesting(null);
    setFlake8PathForTesting(null);
    const broken = await lintFile("m.py", "def f(:\n    pass\n");
    expect(broken.linter).toBe("python ast (flake8 not found; syntax only)");
    expect(broken.issues[0]).toMatchObject({ line: 1, code: "E999", syntax: true });
    expect(broken.issues[0]?.message).toMatch(/^SyntaxError: /);
    const fine = await lintFile("m.py", "print(undefined_name)\n");
    expect(fine.issues).toEqual([]);
    expect(fine.namesChecked).toBe(false);
  });
});
