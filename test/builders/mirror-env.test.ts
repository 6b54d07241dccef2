/**
 * A repository whose tests need a package the sandbox's system lacks, and a file its install
 * generates: without an environment the mirror keeps nothing and says why; with one it keeps the fix,
 * the instance carries the environment, and it grades on the layer built at the bundle's commit.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mirror } from "../../src/builders/mirror.js";
import { commitFiles, initRepo } from "../../src/builders/testing.js";
import { runInstance } from "../../src/builders/verify.js";
import { CALC_FILES, envFixture, GENERATE_VERSION, offlineSpec } from "../../src/envlayers/testing.js";
import { git } from "../../src/workspace/index.js";

let fx: ReturnType<typeof envFixture>;
let repo: string;
const sha: Record<string, string> = {};

beforeAll(async () => {
  fx = envFixture();
  process.env.ACILAB_ENV_DIR = fx.store;
  repo = join(fx.root, "calc");
  await initRepo(repo);
  const { "tests/test_calc.py": _, ...rest } = CALC_FILES;
  await commitFiles(
    repo,
    {
      ...rest,
      "tests/test_version.py":
        "from calc import VERSION\n\n\ndef test_version():\n    assert VERSION == '1.0'\n",
    },
    "calc",
  );
  // A change to a test helper no test module loads, with dependency files of its own: the cheap
  // checks skip it before any environment is built for its commit.
  sha.helper = await commitFiles(
    repo,
    {
      "pyproject.toml": `${CALC_FILES["pyproject.toml"]}# a comment: another environment\n`,
      "src/calc/__init__.py": `${CALC_FILES["src/calc/__init__.py"]}\n\ndef triple(x):\n    return 3 * x\n`,
      "tests/helpers.py": "def approx(a, b):\n    return abs(a - b) < 1e-9\n",
    },
    "a helper",
  );
  await commitFiles(
    repo,
    {
      "pyproject.toml": `${CALC_FILES["pyproject.toml"]}# a comment: another environment\n# and HEAD's own\n`,
      "src/calc/__init__.py":
        `${CALC_FILES["src/calc/__init__.py"]}\n\ndef triple(x):\n    return 3 * x\n`.replace(
          "return double(x) + x",
          "return double(double(x))",
        ),
      "tests/test_quadruple.py":
        "from calc import quadruple\n\n\ndef test_quadruple():\n    assert quadruple(3) == 12\n",
    },
    "quadruple: four times, not three",
  );
});

afterAll(() => {
  delete process.env.ACILAB_ENV_DIR;
  rmSync(fx.root, { recursive: true, force: true });
});

describe("tasks mirror with an environment", () => {
  it("keeps nothing on the system Python, and says the import is why", async () => {
    const report = await mirror({ repo, out: join(fx.root, "none", "t.jsonl") });
    expect(report.instances).toEqual([]);
    expect(report.candidates[0]?.reason).toMatch(/acilabdep/);
  });

  it("keeps the fix in the environment; the instance carries it and grades with it", async () => {
    const spec = offlineSpec(fx.wheels, [GENERATE_VERSION]);
    const said: string[] = [];
    const out = join(fx.root, "env", "t.jsonl");
    const report = await mirror({ repo, out, environment: spec, onEnvironment: (l) => said.push(l) });
    expect(report.candidates.map((c) => c.reason)).toEqual([
      "1 FAIL_TO_PASS, 0 PASS_TO_PASS",
      "none of its test files is a test module at HEAD, and no test module there loads tests/helpers.py; at the fix: none of its test files is a test module at the fix, and no test module there loads tests/helpers.py",
    ]);
    const [instance] = report.instances;
    if (!instance) throw new Error("no instance");
    expect(instance.acilab_env).toEqual(spec);
    // HEAD's environment only: none for the helper's commit, which the cheap checks skipped.
    expect(said.filter((l) => l.startsWith("building environment"))).toHaveLength(1);
    // The environment's commit travels in the bundle, so another machine builds the same layer.
    const bundle = join(fx.root, "env", "t.bundle");
    expect(await git(fx.root, ["bundle", "list-heads", bundle])).toContain(instance.environment_setup_commit);
    const gold = await runInstance(instance, join(fx.root, "env"), instance.patch);
    expect(gold.statuses.get("tests/test_quadruple.py::test_quadruple")).toBe("PASSED");
    // calc imports the generated _version.py: the layer put it back into this fresh checkout.
    const base = await runInstance(instance, join(fx.root, "env"), null);
    expect(base.statuses.get("tests/test_quadruple.py::test_quadruple")).toBe("FAILED");
  });
});
