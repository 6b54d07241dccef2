/**
 * A JavaScript repository whose tests need a package from its lock file: without an environment the
 * mirror keeps nothing and the reason names the missing module; with `--env auto` the layer is
 * `npm ci` from the lock, the instance carries it, and it grades on a fresh checkout with it.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mirror } from "../../src/builders/mirror.js";
import { commitFiles, initRepo } from "../../src/builders/testing.js";
import { runInstance } from "../../src/builders/verify.js";
import { NODE_CALC_FIX, NODE_DEP_TARBALL, nodeRepoFiles, npmLock } from "../../src/envlayers/testing.js";
import { git } from "../../src/workspace/index.js";

let root: string;
let repo: string;
const QUADRUPLE_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { quadruple } = require('../lib/calc.js');\n\ntest('quadruple', () => assert.strictEqual(quadruple(3), 12));\n";

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "acilab-mirror-node-")));
  chmodSync(root, 0o755);
  mkdirSync(join(root, "store"), { mode: 0o755 });
  process.env.ACILAB_ENV_DIR = join(root, "store");
  const files = nodeRepoFiles(root);
  repo = join(root, "calc");
  await initRepo(repo);
  mkdirSync(join(repo, "vendor"));
  copyFileSync(join(root, NODE_DEP_TARBALL), join(repo, NODE_DEP_TARBALL));
  const { "test/calc.test.js": _, ...rest } = files;
  await commitFiles(
    repo,
    {
      ...rest,
      "test/zero.test.js":
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { quadruple } = require('../lib/calc.js');\n\ntest('zero', () => assert.strictEqual(quadruple(0), 0));\n",
    },
    "calc",
  );
  await commitFiles(
    repo,
    { "lib/calc.js": NODE_CALC_FIX, "test/quadruple.test.js": QUADRUPLE_TEST },
    "quadruple: four times, not three",
  );
});

afterAll(() => {
  delete process.env.ACILAB_ENV_DIR;
  rmSync(root, { recursive: true, force: true });
});

describe("tasks mirror on a JavaScript repository with a lock file", () => {
  it("keeps nothing without its node_modules, and the reason names the missing package", async () => {
    const report = await mirror({ repo, out: join(root, "none", "t.jsonl") });
    expect(report.instances).toEqual([]);
    expect(report.candidates[0]?.reason).toMatch(/acilab-nodedep/);
  });

  it("with --env auto: npm ci from the lock file, the instance carries it and grades with it", async () => {
    const said: string[] = [];
    const out = join(root, "env", "t.jsonl");
    const report = await mirror({ repo, out, environment: "auto", onEnvironment: (l) => said.push(l) });
    expect(said).toContain("environment: package-lock.json: npm ci installs exactly the versions it locks");
    expect(report.candidates.map((c) => c.reason)).toEqual(["1 FAIL_TO_PASS, 0 PASS_TO_PASS"]);
    const [instance] = report.instances;
    if (!instance) throw new Error("no instance");
    expect(instance.acilab_env).toEqual({ node: "node", install: ["npm ci"] });
    expect(instance.log_parser).toBe("node-tap");
    const gold = await runInstance(instance, join(root, "env"), instance.patch);
    expect(gold.statuses.get("quadruple")).toBe("PASSED");
    const base = await runInstance(instance, join(root, "env"), null);
    expect(base.statuses.get("quadruple")).toBe("FAILED");
  });

  it("a fix whose dependency files differ from HEAD's is tested in its own commit's environment", async () => {
    // HEAD dropped the dependency (double written out) and rewrote quadruple, so the fix no longer
    // reverse-applies there and its tests need the package HEAD's lock file no longer has.
    const dir = join(root, "moved-on");
    await git(root, ["clone", "-q", repo, dir]);
    const pkg = JSON.stringify(
      { name: "calc", version: "0.2.0", private: true, scripts: { test: "node --test" } },
      null,
      2,
    );
    await commitFiles(
      dir,
      {
        "package.json": pkg,
        "package-lock.json": npmLock(root, pkg),
        [NODE_DEP_TARBALL]: null,
        "lib/calc.js": "const double = (x) => 2 * x;\n\nexports.quadruple = (x) => 4 * x;\n",
      },
      "calc: no dependency",
    );
    const said: string[] = [];
    const report = await mirror({
      repo: dir,
      out: join(root, "moved", "t.jsonl"),
      environment: "auto",
      onEnvironment: (l) => said.push(l),
    });
    const [instance] = report.instances;
    if (!instance) throw new Error(`no instance: ${report.candidates.map((c) => c.reason).join("; ")}`);
    expect(instance.acilab_env).toEqual({ node: "node", install: ["npm ci"] });
    const bundle = join(root, "moved", "t.bundle");
    const heads = await git(root, ["bundle", "list-heads", bundle]);
    expect(heads).toMatch(/refs\/tags\/acilab\/environment-[0-9a-f]{12}/);
    expect(heads).toContain(instance.environment_setup_commit);
    expect(said.filter((l) => l.startsWith("building environment"))).toHaveLength(2);
    const gold = await runInstance(instance, join(root, "moved"), instance.patch);
    expect(gold.statuses.get("quadruple")).toBe("PASSED");
  });

  it("a repository whose runner is one of its dependencies needs --env, and is told so", async () => {
    const dir = join(root, "mocha-repo");
    await initRepo(dir);
    await commitFiles(
      dir,
      {
        "package.json": JSON.stringify({
          name: "m",
          scripts: { test: "mocha --require test/setup.js" },
          devDependencies: { mocha: "^10.0.0" },
        }),
        "index.js": "module.exports = 1;\n",
        "test/index.js": "it('works', () => {});\n",
      },
      "m",
    );
    await expect(mirror({ repo: dir, out: join(root, "m", "t.jsonl") })).rejects.toThrow(
      /tests run with mocha, one of its own dependencies: give --env auto/,
    );
  });
});
