/**
 * `tasks mirror` on suites as real projects keep them (issue 33): the whole suite in a root `test.py`
 * (python-slugify), changes that add API rather than fix a bug (more-itertools' new functions and
 * keywords, used as `slug.name(…)`), a changelog line the fix added, and test files named by the
 * repository's own word (`--test-files`).
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

const TITLE = `

def title(text):
    return text.title()
`;
const SLUG = `def slugify(text):
    return text.lower()
${TITLE}`;
const SLUG_SPACES = `def slugify(text):
    return text.lower().replace(" ", "-")
${TITLE}`;
const SLUG_UNSLUG = `${SLUG_SPACES}

def unslugify(slug):
    return slug.replace("-", " ")
`;
const SLUG_SEP = SLUG_UNSLUG.replace(
  'def unslugify(slug):\n    return slug.replace("-", " ")',
  'def unslugify(slug, sep="-"):\n    return slug.replace(sep, " ")',
);
const TEST = `import unittest

import slug


class SlugTests(unittest.TestCase):
    def test_lower(self):
        self.assertEqual(slug.slugify("Abc"), "abc")
`;
const TEST_SPACES = `${TEST}
    def test_spaces(self):
        self.assertEqual(slug.slugify("a b"), "a-b")
`;
const TEST_UNSLUG = `${TEST_SPACES}
    def test_unslugify(self):
        self.assertEqual(slug.unslugify("a-b"), "a b")
`;
const TEST_SEP = `${TEST_UNSLUG}
    def test_sep(self):
        self.assertEqual(slug.unslugify("a_b", sep="_"), "a b")
`;

let scratch: string;
let repo: string;
let fixes: BuildReport;
let features: BuildReport;
const sha: Record<string, string> = {};

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "acilab-mirror-shapes-"));
  repo = join(scratch, "slug");
  await initRepo(repo);
  await commitFiles(repo, { "slug.py": SLUG, "test.py": TEST, "CHANGELOG.md": "# Changes\n\n" }, "slug");
  sha.fix = await commitFiles(
    repo,
    {
      "slug.py": SLUG_SPACES,
      "test.py": TEST_SPACES,
      "CHANGELOG.md": "# Changes\n\n- slugify turns spaces into dashes (#12)\n",
    },
    "Spaces become dashes",
  );
  sha.function = await commitFiles(
    repo,
    {
      "slug.py": SLUG_UNSLUG,
      "test.py": TEST_UNSLUG,
      "CHANGELOG.md": "# Changes\n\n- unslugify (#13)\n- slugify turns spaces into dashes (#12)\n",
    },
    "Add unslugify",
  );
  sha.keyword = await commitFiles(
    repo,
    { "slug.py": SLUG_SEP, "test.py": TEST_SEP },
    "unslugify: a separator",
  );
  fixes = await mirror({ repo, out: join(scratch, "fixes", "t.jsonl") });
  features = await mirror({ repo, out: join(scratch, "features", "t.jsonl"), kind: "feature" });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const outcome = (report: BuildReport, commit: string | undefined) =>
  report.candidates.find((c) => c.sha === commit);

async function checkoutBase(instance: Instance, bundleDir: string, name: string): Promise<string> {
  const dir = join(scratch, name);
  await git(scratch, ["init", "-q", dir]);
  await git(dir, ["fetch", "-q", join(bundleDir, "t.bundle"), "+refs/tags/*:refs/tags/*"]);
  await git(dir, ["checkout", "-q", instance.base_commit]);
  return dir;
}

describe("a root-level test.py", () => {
  it("is a test file: the fix that changes it and slug.py is kept, and grades", async () => {
    expect(fixes.setup.how).toMatch(/^pytest: 1 Python test module/);
    const kept = outcome(fixes, sha.fix);
    // At HEAD: the later tests of test.py pass with the fix undone too.
    expect(kept).toMatchObject({ kept: true, reason: "1 FAIL_TO_PASS, 3 PASS_TO_PASS" });
    const instance = fixes.instances.find((i) => i.instance_id === kept?.instanceId) as Instance;
    expect(instance.FAIL_TO_PASS).toEqual(["test.py::SlugTests::test_spaces"]);
    expect(instance.test_command.at(-1)).toBe("test.py");
    const gold = await runInstance(instance, join(scratch, "fixes"), instance.patch);
    expect(gold.statuses.get("test.py::SlugTests::test_spaces")).toBe("PASSED");
  });

  it("leaves the changelog line the fix added out of the base, even where later lines moved it", async () => {
    const instance = fixes.instances.find((i) => i.instance_id === outcome(fixes, sha.fix)?.instanceId);
    if (!instance) throw new Error("no instance");
    const base = await checkoutBase(instance, join(scratch, "fixes"), "fix-base");
    const changelog = readFileSync(join(base, "CHANGELOG.md"), "utf8");
    expect(changelog).not.toContain("spaces into dashes");
    expect(changelog).toContain("- unslugify (#13)");
  });
});

describe("feature additions", () => {
  it("are skipped by default, naming the API they add: a function, a keyword", () => {
    expect(outcome(fixes, sha.function)).toMatchObject({
      kept: false,
      reason: expect.stringMatching(/^adds API: unslugify — a feature its tests use, not a bug fix/),
    });
    expect(outcome(fixes, sha.keyword)?.reason).toMatch(/^adds API: keyword sep of unslugify — /);
  });

  it("are kept with --kind feature, the issue asking for what to add; bug fixes are then skipped", async () => {
    expect(outcome(features, sha.fix)?.reason).toMatch(/^a bug fix: it adds no API its tests use/);
    const kept = outcome(features, sha.function);
    expect(kept?.reason).toMatch(/^1 FAIL_TO_PASS, \d+ PASS_TO_PASS \(adds API: unslugify\)/);
    const instance = features.instances.find((i) => i.instance_id === kept?.instanceId) as Instance;
    expect(instance.problem_statement.split("\n")[0]).toBe("Add unslugify");
    expect(instance.problem_statement).toContain("Please add a new function `unslugify`.");
    expect(instance.problem_statement).toContain('slug.unslugify("a-b")');
    const keyword = features.instances.find(
      (i) => i.instance_id === outcome(features, sha.keyword)?.instanceId,
    );
    expect(keyword?.problem_statement).toContain("a new keyword argument `sep` of `unslugify`");
    const base = await runInstance(instance, join(scratch, "features"), null);
    expect(base.statuses.get("test.py::SlugTests::test_unslugify")).toBe("FAILED");
    const gold = await runInstance(instance, join(scratch, "features"), instance.patch);
    expect(gold.statuses.get("test.py::SlugTests::test_unslugify")).toBe("PASSED");
  });
});

describe("--test-files", () => {
  it("names test modules the conventions do not know", async () => {
    const specs = join(scratch, "specs");
    await initRepo(specs);
    await commitFiles(
      specs,
      {
        "half.py": "def half(x):\n    return x // 2\n",
        "specs/half_spec.py": "from half import half\n\n\ndef test_even():\n    assert half(4) == 2\n",
      },
      "half",
    );
    await commitFiles(
      specs,
      {
        "half.py": "def half(x):\n    return x / 2\n",
        "specs/half_spec.py":
          "from half import half\n\n\ndef test_even():\n    assert half(4) == 2\n\n\ndef test_odd():\n    assert half(3) == 1.5\n",
      },
      "half: true division",
    );
    await expect(mirror({ repo: specs, out: join(scratch, "specs-none", "t.jsonl") })).rejects.toThrow(
      /name the test files with --test-files GLOB/,
    );
    const named = await mirror({
      repo: specs,
      out: join(scratch, "specs-named", "t.jsonl"),
      testFiles: ["specs/*_spec.py"],
    });
    expect(named.candidates.map((c) => c.reason)).toEqual(["1 FAIL_TO_PASS, 1 PASS_TO_PASS"]);
    expect(named.instances[0]?.FAIL_TO_PASS).toEqual(["specs/half_spec.py::test_odd"]);
  });
});
