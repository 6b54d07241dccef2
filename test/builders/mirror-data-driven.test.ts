/**
 * Data-driven tests, node-semver's two shapes (issue 33): a fix that adds a row to a `cases` table in
 * its test module, whose tests are named at run time, and a fix that changes only a fixture file the
 * test modules load. Both are kept as SWE-bench keeps them: FAIL_TO_PASS from the runs, the base with
 * the parent's version of the test and fixture files, and the test patch putting them back.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuildReport, mirror } from "../../src/builders/mirror.js";
import { commitFiles, initRepo } from "../../src/builders/testing.js";
import { runInstance } from "../../src/builders/verify.js";
import type { Instance } from "../../src/swebench/index.js";
import { git } from "../../src/workspace/index.js";

const PARSE = `exports.parse = (text) => Number.parseInt(text.replace("-", ""), 10);
`;
const PARSE_SIGNED = `exports.parse = (text) => Number.parseInt(text, 10);
`;
const RANGE = `exports.width = ([lo, hi]) => hi - lo;
`;
const RANGE_FIXED = `exports.width = ([lo, hi]) => Math.abs(hi - lo);
`;
const parseTest = (rows: string) => `const test = require("node:test");
const assert = require("node:assert");
const { parse } = require("../lib/parse.js");

const cases = [
${rows}];

for (const [text, want] of cases) test(\`parse \${text}\`, () => assert.strictEqual(parse(text), want));
`;
const WIDTH_TEST = `const test = require("node:test");
const assert = require("node:assert");
const { width } = require("../lib/range.js");
const rows = require("./fixtures/widths.js");

for (const [range, want] of rows) test(\`width of \${range.join("..")}\`, () => assert.strictEqual(width(range), want));
`;
const widths = (rows: string) => `module.exports = [\n${rows}];\n`;

let scratch: string;
let report: BuildReport;
const sha: Record<string, string> = {};

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "acilab-mirror-data-"));
  const repo = join(scratch, "nums");
  await initRepo(repo);
  await commitFiles(
    repo,
    {
      "package.json": JSON.stringify({ name: "nums", scripts: { test: "node --test" } }),
      "lib/parse.js": PARSE,
      "lib/range.js": RANGE,
      "test/parse.test.js": parseTest('  ["1", 1],\n  ["42", 42],\n'),
      "test/width.test.js": WIDTH_TEST,
      "test/fixtures/widths.js": widths("  [[1, 3], 2],\n"),
    },
    "nums",
  );
  sha.row = await commitFiles(
    repo,
    {
      "lib/parse.js": PARSE_SIGNED,
      "test/parse.test.js": parseTest('  ["1", 1],\n  ["42", 42],\n  ["-7", -7],\n'),
    },
    "parse: keep the sign",
  );
  sha.fixture = await commitFiles(
    repo,
    { "lib/range.js": RANGE_FIXED, "test/fixtures/widths.js": widths("  [[1, 3], 2],\n  [[5, 2], 3],\n") },
    "width: reversed ranges",
  );
  report = await mirror({ repo, out: join(scratch, "out", "t.jsonl") });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function instanceOf(commit: string | undefined): Instance {
  const id = report.candidates.find((c) => c.sha === commit)?.instanceId;
  const instance = report.instances.find((i) => i.instance_id === id);
  if (!instance) throw new Error(`not kept: ${report.candidates.map((c) => c.reason).join("; ")}`);
  return instance;
}

async function baseFile(instance: Instance, path: string): Promise<string> {
  const dir = join(scratch, `base-${instance.instance_id}`);
  await git(scratch, ["init", "-q", dir]);
  await git(dir, ["fetch", "-q", join(scratch, "out", "t.bundle"), "+refs/tags/*:refs/tags/*"]);
  await git(dir, ["checkout", "-q", instance.base_commit]);
  return readFileSync(join(dir, path), "utf8");
}

describe("data-driven tests", () => {
  it("a row added to a cases table: FAIL_TO_PASS from the runs, the test file hidden by file", async () => {
    const outcome = report.candidates.find((c) => c.sha === sha.row);
    expect(outcome?.reason).toBe("1 FAIL_TO_PASS, 2 PASS_TO_PASS (tests hidden by file)");
    const instance = instanceOf(sha.row);
    expect(instance.FAIL_TO_PASS).toEqual(["parse -7"]);
    expect(await baseFile(instance, "test/parse.test.js")).not.toContain('["-7", -7]');
    expect(instance.test_patch).toContain('+  ["-7", -7],');
    const gold = await runInstance(instance, join(scratch, "out"), instance.patch);
    expect(gold.statuses.get("parse -7")).toBe("PASSED");
    const none = await runInstance(instance, join(scratch, "out"), null);
    expect(none.statuses.get("parse -7")).toBe("FAILED");
  });

  it("only a fixture file changed: the test modules that load it run, and it is hidden by file", async () => {
    const instance = instanceOf(sha.fixture);
    expect(instance.FAIL_TO_PASS).toEqual(["width of 5..2"]);
    expect(instance.PASS_TO_PASS).toEqual(["width of 1..3"]);
    expect(instance.test_command.at(-1)).toBe("test/width.test.js");
    expect(await baseFile(instance, "test/fixtures/widths.js")).not.toContain("[5, 2]");
    expect(instance.test_patch).toContain("test/fixtures/widths.js");
    const gold = await runInstance(instance, join(scratch, "out"), instance.patch);
    expect(gold.statuses.get("width of 5..2")).toBe("PASSED");
    const none = await runInstance(instance, join(scratch, "out"), null);
    expect(none.statuses.get("width of 5..2")).toBe("FAILED");
    expect(none.statuses.get("width of 1..3")).toBe("PASSED");
  });
});
