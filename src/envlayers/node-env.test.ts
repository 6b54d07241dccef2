import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeEnvironmentSpec } from "../swebench/index.js";
import { git } from "../workspace/index.js";
import { EnvBuildError, ensureLayer } from "./index.js";
import { layerSandbox, NODE_CALC_FIX, NODE_DEP_TARBALL, nodeRepoFiles } from "./testing.js";

let root: string;
let repo: string;
let commit: string;
let files: Record<string, string>;
/** Offline: the lock names only a file: package, so npm needs no registry. */
const SPEC: NodeEnvironmentSpec = { node: "node", install: ["npm ci"], indexes: "none" };

async function makeRepo(
  name: string,
  contents: Record<string, string>,
): Promise<{ dir: string; commit: string }> {
  const dir = join(root, name);
  mkdirSync(join(dir, "vendor"), { recursive: true });
  copyFileSync(join(root, NODE_DEP_TARBALL), join(dir, NODE_DEP_TARBALL));
  await git(dir, ["init", "-q", "-b", "main"]);
  for (const [path, text] of Object.entries(contents)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "-q", "-m", name]);
  return { dir, commit: (await git(dir, ["rev-parse", "HEAD"])).trim() };
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "acilab-nodeenv-")));
  chmodSync(root, 0o755);
  mkdirSync(join(root, "store"), { mode: 0o755 });
  process.env.ACILAB_ENV_DIR = join(root, "store");
  files = nodeRepoFiles(root);
  ({ dir: repo, commit } = await makeRepo("calc", { ...files, "lib/calc.js": NODE_CALC_FIX }));
});

afterAll(() => {
  delete process.env.ACILAB_ENV_DIR;
  rmSync(root, { recursive: true, force: true });
});

describe("Node environment layers", () => {
  it("installs node_modules from the lock file once, links it into each checkout read-only, with its .bin on PATH", async () => {
    const lines: string[] = [];
    const layer = await ensureLayer({ repoPath: repo, commit, spec: SPEC, log: (l) => lines.push(l) });
    expect(layer.manifest.status).toBe("ok");
    expect(layer.manifest.interpreter.language).toBe("node");
    expect(layer.manifest.commands.map((c) => [c.line, c.exit_code])).toEqual([["npm ci", 0]]);
    expect(
      lines.some((l) =>
        /^building environment \w+: node \d+\.\d+\.\d+ \(.*\), packages from no registry/.test(l),
      ),
    ).toBe(true);

    const sandbox = await layerSandbox(layer, repo, join(root, "checkout"));
    try {
      const tests = await sandbox.exec({ argv: ["node", "--test", "test/"], timeoutMs: 120_000 });
      expect(tests.output).toMatch(/# pass 2/);
      const bin = await sandbox.exec({ argv: ["acilab-nodedep"], timeoutMs: 60_000 });
      expect(bin.stdout.trim()).toBe("acilab-nodedep 42");
      const link = await sandbox.exec({ argv: ["readlink", "node_modules"], timeoutMs: 60_000 });
      expect(link.stdout.trim()).toBe("/env/node_modules");
      // Runners' caches go to the sandbox's own /tmp, not the read-only layer.
      const cache = await sandbox.exec({
        argv: ["bash", "-c", "mkdir -p node_modules/.cache/ava && echo ok; touch node_modules/x"],
        timeoutMs: 60_000,
      });
      expect(cache.stdout).toContain("ok");
      expect(cache.output).toMatch(/Read-only file system/);
      // git sees nothing to carry: the link is excluded even where .gitignore names only a folder.
      const status = await sandbox.exec({ argv: ["git", "status", "--porcelain"], timeoutMs: 60_000 });
      expect(status.stdout.trim()).toBe("");
    } finally {
      await sandbox.close();
    }
    const again = await ensureLayer({ repoPath: repo, commit, spec: SPEC });
    expect(again.manifest.created_at).toBe(layer.manifest.created_at);
  });

  it("a lock file that does not match package.json fails the build with npm's own reason", async () => {
    const pkg = JSON.parse(files["package.json"] as string) as { dependencies: Record<string, string> };
    // A second name for the vendored package: npm sees it is not locked without asking a registry.
    pkg.dependencies["acilab-other"] = `file:${NODE_DEP_TARBALL}`;
    const bad = await makeRepo("out-of-sync", { ...files, "package.json": JSON.stringify(pkg, null, 2) });
    const err = await ensureLayer({ repoPath: bad.dir, commit: bad.commit, spec: SPEC }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EnvBuildError);
    const message = (err as Error).message;
    expect(message).toContain("install line 1 of 1 failed");
    expect(message).toContain("npm ci");
    expect(message).toMatch(
      /can only install packages when your package\.json and package-lock\.json .* are in sync/,
    );
    expect(message).toMatch(/Missing: acilab-other@1\.0\.0 from lock file/);
    expect(message).toMatch(/The whole log: .*build\.log/);
  });

  it("install lines that leave no node_modules are a failed build that says so", async () => {
    const err = await ensureLayer({ repoPath: repo, commit, spec: { ...SPEC, install: ["true"] } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EnvBuildError);
    expect((err as Error).message).toMatch(/left no node_modules at the repository root/);
  });

  it("a node that does not exist, or is not node, is named with what to give instead", async () => {
    await expect(
      ensureLayer({ repoPath: repo, commit, spec: { ...SPEC, node: join(root, "no", "node") } }),
    ).rejects.toThrow(/interpreter ".*no\/node" not found \(no such file\); name one with --node/);
    await expect(
      ensureLayer({ repoPath: repo, commit, spec: { ...SPEC, node: "/usr/bin/python3" } }),
    ).rejects.toThrow(/did not run as node/);
  });
});
