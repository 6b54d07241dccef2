import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseNodeTap } from "./node-tap.js";
import { parsePytest } from "./pytest.js";

let dir: string;

function capture(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, {
      cwd: dir,
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
    });
  } catch (err) {
    return (err as { stdout: string }).stdout; // failing tests exit non-zero; we want the log
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-parsers-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("parsePytest on real pytest -rA output", () => {
  it("reads every status, parametrized ids and failure messages", () => {
    writeFileSync(
      join(dir, "test_mix.py"),
      [
        "import pytest",
        "def test_pass(): assert 1 + 1 == 2",
        "def test_fail(): assert 1 == 2, 'one is not two - really'",
        "@pytest.mark.skip(reason='not today')",
        "def test_skip(): pass",
        "@pytest.mark.xfail",
        "def test_xfail(): assert False",
        "@pytest.fixture",
        "def broken(): raise RuntimeError('fixture broke')",
        "def test_error(broken): pass",
        "@pytest.mark.parametrize('x', [1, 2, 'a b'])",
        "def test_param(x): assert x != 2",
      ].join("\n"),
    );
    const log = capture("/usr/bin/python3", [
      "-m",
      "pytest",
      "--no-header",
      "-rA",
      "--tb=no",
      "-p",
      "no:cacheprovider",
      "test_mix.py",
    ]);
    const statuses = parsePytest(log);
    expect(Object.fromEntries(statuses)).toEqual({
      "test_mix.py::test_pass": "PASSED",
      "test_mix.py::test_fail": "FAILED",
      "test_mix.py::test_xfail": "XFAIL",
      "test_mix.py::test_error": "ERROR",
      "test_mix.py::test_param[1]": "PASSED",
      "test_mix.py::test_param[2]": "FAILED",
      "test_mix.py::test_param[a b]": "PASSED",
    });
  });

  it("reads verbose status-at-end lines and strips ANSI colour", () => {
    writeFileSync(join(dir, "test_v.py"), "def test_a(): pass\ndef test_b(): assert 0\n");
    const log = capture("/usr/bin/python3", [
      "-m",
      "pytest",
      "-v",
      "--color=yes",
      "-p",
      "no:cacheprovider",
      "test_v.py",
    ]);
    const statuses = parsePytest(log);
    expect(statuses.get("test_v.py::test_a")).toBe("PASSED");
    expect(statuses.get("test_v.py::test_b")).toBe("FAILED");
  });

  it("returns nothing for a log without results", () => {
    expect(parsePytest("ImportError while loading conftest\n").size).toBe(0);
  });
});

describe("parseNodeTap on real node --test output", () => {
  it("names nested tests by their describe path and reads skip/todo", () => {
    writeFileSync(
      join(dir, "t.test.mjs"),
      [
        'import { describe, it, test } from "node:test";',
        'import assert from "node:assert/strict";',
        'describe("compare", () => {',
        '  it("orders versions", () => assert.equal(1, 1));',
        '  it("breaks # sometimes", () => assert.equal(1, 2));',
        '  describe("prerelease", () => { it("sorts first", () => {}); });',
        "});",
        'test("top level", () => {});',
        'test("skipped", { skip: "later" }, () => {});',
        'test("todo one", { todo: true }, () => {});',
      ].join("\n"),
    );
    const log = capture("node", ["--test", "--test-reporter=tap", "t.test.mjs"]);
    const statuses = parseNodeTap(log);
    expect(statuses.get("compare > orders versions")).toBe("PASSED");
    expect(statuses.get("compare > breaks # sometimes")).toBe("FAILED");
    expect(statuses.get("compare > prerelease > sorts first")).toBe("PASSED");
    expect(statuses.get("compare")).toBe("FAILED");
    expect(statuses.get("top level")).toBe("PASSED");
    expect(statuses.get("skipped")).toBe("SKIPPED");
    expect(statuses.get("todo one")).toBe("SKIPPED");
  });
});
