/**
 * SWE-bench rows as published, end to end and offline: a synthetic repository in a store laid out as
 * the snapshots are (`OWNER+NAME/repo`, bare), a recipe of its own ($ACILAB_RECIPES, the same format
 * as acilab's twelve) whose pinned requirement comes from a local wheel folder, and rows with nothing
 * but SWE-bench's fields. `acilab grade` builds the recipe's environment once, grades the good row
 * (resolved with gold), and gives every bad row its own named cause while the good one still grades.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing.js";
import { envFixture } from "../../src/envlayers/testing.js";
import { git } from "../../src/workspace/index.js";

const CALC = "def double(x):\n    return 2 * x\n\n\ndef quadruple(x):\n    return double(x) + x\n";
const TESTS =
  "import unittest\n\nfrom acilabdep import double as reference\nfrom calc import double\n\n\nclass CalcTests(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(double(4), reference(4))\n";
const HIDDEN = `${TESTS}\n    def test_quadruple(self):\n        self.assertEqual(__import__("calc").quadruple(3), 12)\n`;

let fixture: ReturnType<typeof envFixture>;
let store: string;
let rowsFile: string;
const saved: Record<string, string | undefined> = {};

function setEnv(name: string, value: string): void {
  saved[name] = process.env[name];
  process.env[name] = value;
}

beforeAll(async () => {
  fixture = envFixture();
  // The repository: a work tree made into the store's bare clone at acme+calc/repo.
  const work = join(fixture.root, "work");
  mkdirSync(join(work, "tests"), { recursive: true });
  writeFileSync(join(work, "calc.py"), CALC);
  writeFileSync(join(work, "tests", "__init__.py"), "");
  writeFileSync(join(work, "tests", "test_calc.py"), TESTS);
  await git(work, ["init", "-q", "-b", "main"]);
  await git(work, ["add", "-A"]);
  await git(work, ["commit", "-qm", "calc"]);
  const base = (await git(work, ["rev-parse", "HEAD"])).trim();
  writeFileSync(join(work, "tests", "test_calc.py"), HIDDEN);
  const testPatch = await git(work, ["diff"]);
  await git(work, ["checkout", "-q", "--", "."]);
  writeFileSync(join(work, "calc.py"), CALC.replace("double(x) + x", "double(double(x))"));
  const gold = await git(work, ["diff"]);
  await git(work, ["checkout", "-q", "--", "."]);
  store = join(fixture.root, "store-repos");
  mkdirSync(join(store, "acme+calc"), { recursive: true });
  execFileSync("git", ["clone", "-q", "--bare", work, join(store, "acme+calc", "repo")]);

  // Its recipe: the interpreter on PATH by version, a pin from the wheel folder, unittest's verbose
  // lines (what Django's runner prints, so the django reader reads them).
  const python = execFileSync("python3", ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], {
    encoding: "utf8",
  }).trim();
  const recipes = join(fixture.root, "recipes");
  mkdirSync(recipes);
  writeFileSync(
    join(recipes, "acme__calc.yaml"),
    [
      "repo: acme/calc",
      "log_parser: django",
      "directives: files",
      "environments:",
      `- versions: ['1.0']`,
      `  python: '${python}'`,
      "  pip: [acilabdep==1.0]",
      "  test: [python, -m, unittest, -v]",
      `- versions: ['2.0']`,
      `  python: '${python}'`,
      "  pip: [acilabdep==9.9]",
      "  test: [python, -m, unittest, -v]",
      `- versions: ['3.0']`,
      "  python: '2.5'",
      "  test: [python, -m, unittest, -v]",
      "",
    ].join("\n"),
  );
  setEnv("ACILAB_RECIPES", recipes);
  setEnv("ACILAB_ENV_DIR", fixture.store);
  // Offline: a repository missing from the store is not looked for on the network.
  setEnv("ACILAB_NO_CLONE", "1");
  // The machine's pip configuration, as the build reads it: no index, the wheel folder only.
  setEnv("PIP_NO_INDEX", "1");
  setEnv("PIP_FIND_LINKS", fixture.wheels);

  const id = (n: number) => `acme__calc-${n}`;
  const unittestId = (name: string) =>
    Number(python.split(".")[1]) >= 11
      ? `${name} (tests.test_calc.CalcTests.${name})`
      : `${name} (tests.test_calc.CalcTests)`;
  const row = (n: number, version: string, extra: Record<string, unknown> = {}) => ({
    repo: "acme/calc",
    instance_id: id(n),
    base_commit: base,
    patch: gold,
    test_patch: testPatch,
    problem_statement: "quadruple(3) is 9, not 12",
    hints_text: "",
    created_at: "2026-01-01T00:00:00Z",
    version,
    FAIL_TO_PASS: JSON.stringify([unittestId("test_quadruple")]),
    PASS_TO_PASS: JSON.stringify([unittestId("test_double")]),
    environment_setup_commit: base,
    ...extra,
  });
  const rows = [
    row(1, "1.0"),
    row(2, "2.0"),
    row(3, "3.0"),
    row(4, "7.7"),
    row(5, "1.0", { repo: "acme/elsewhere" }),
    row(6, "1.0", { FAIL_TO_PASS: 12 }),
  ];
  rowsFile = join(fixture.root, "rows.jsonl");
  writeFileSync(rowsFile, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
  chmodSync(fixture.root, 0o755);
}, 120_000);

afterAll(() => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  if (fixture) rmSync(fixture.root, { recursive: true, force: true });
});

describe("acilab grade on published rows", () => {
  it("resolves the good row with gold and names each bad row's cause", async () => {
    const { code, err } = await runCli([
      "grade",
      "--instances",
      rowsFile,
      "--repos",
      store,
      "--predictions",
      "gold",
      "--run-id",
      "published",
      "--out",
      join(fixture.root, "runs"),
    ]);
    expect(code, err).toBe(0);
    const report = (n: number) =>
      (
        JSON.parse(
          readFileSync(
            join(fixture.root, "runs", "published", "gold", `acme__calc-${n}`, "report.json"),
            "utf8",
          ),
        ) as Record<string, { outcome: string; resolved: boolean; detail: string; pins?: string }>
      )[`acme__calc-${n}`];
    expect(report(1)).toMatchObject({ outcome: "graded", resolved: true, pins: "exact" });
    expect(report(2)).toMatchObject({
      outcome: "environment_unavailable",
      detail: expect.stringContaining("pin acilabdep==9.9 is not in the package indexes"),
    });
    expect(report(3)).toMatchObject({
      outcome: "environment_unavailable",
      detail: expect.stringMatching(/^interpreter Python 2\.5 is not installed here/),
    });
    expect(report(4)).toMatchObject({
      outcome: "environment_unavailable",
      detail: expect.stringMatching(
        /^no recipe for acme\/calc version "7\.7": SWE-bench's harness knows 1\.0, 2\.0, 3\.0/,
      ),
    });
    expect(report(5)).toMatchObject({
      outcome: "environment_unavailable",
      detail: expect.stringMatching(/^repository acme\/elsewhere is missing: it is not in .*store-repos/),
    });
    expect(report(6)).toMatchObject({
      outcome: "environment_unavailable",
      detail: expect.stringMatching(/^malformed row: .*"FAIL_TO_PASS"/),
    });
    const summary = JSON.parse(
      readFileSync(join(fixture.root, "runs", "published", "gold.published.json"), "utf8"),
    ) as { resolved_ids: string[]; unavailable_ids: string[] };
    expect(summary.resolved_ids).toEqual(["acme__calc-1"]);
    expect(summary.unavailable_ids).toHaveLength(5);
  }, 600_000);
});

describe("acilab tasks validate on published rows", () => {
  it("is ready for the good row, and a second run with the same --out grades only what the first left", async () => {
    const out = join(fixture.root, "validated");
    const validate = () =>
      runCli([
        "tasks",
        "validate",
        rowsFile,
        "--repos",
        store,
        "--filter",
        "acme__calc-1",
        "--runs",
        "1",
        "--out",
        out,
      ]);
    const first = await validate();
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/^ok +acme__calc-1$/m);
    const kept = (model: string) => join(out, "validate", model, "acme__calc-1", "report.json");
    const goldWritten = statSync(kept("gold")).mtimeMs;
    // As if the first run had been killed after its gold run: the base's report is not there.
    rmSync(kept("base"));
    const second = await validate();
    expect(second.code, second.err).toBe(0);
    expect(second.out).toMatch(/^ok +acme__calc-1$/m);
    expect(statSync(kept("gold")).mtimeMs).toBe(goldWritten);
    expect(JSON.parse(readFileSync(kept("base"), "utf8"))["acme__calc-1"]).toMatchObject({
      outcome: "graded",
      resolved: false,
    });
  }, 600_000);
});
