import { existsSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvBuildError, ensureLayer } from "../../src/envlayers/index.js";
import { listLayers } from "../../src/envlayers/store.js";
import {
  CALC_FILES,
  envFixture,
  GENERATE_VERSION,
  layerSandbox,
  offlineSpec,
} from "../../src/envlayers/testing.js";
import { git } from "../../src/workspace/index.js";

let fx: ReturnType<typeof envFixture>;
let repo: string;
let commit: string;

beforeAll(async () => {
  fx = envFixture();
  process.env.ACILAB_ENV_DIR = fx.store;
  repo = join(fx.root, "calc");
  mkdirSync(repo);
  await git(repo, ["init", "-q", "-b", "main"]);
  for (const [path, text] of Object.entries(CALC_FILES)) {
    mkdirSync(join(repo, path, ".."), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  await git(repo, ["add", "-A"]);
  await git(repo, ["commit", "-q", "-m", "calc"]);
  commit = (await git(repo, ["rev-parse", "HEAD"])).trim();
});

afterAll(() => {
  delete process.env.ACILAB_ENV_DIR;
  rmSync(fx.root, { recursive: true, force: true });
});

describe("environment layers", () => {
  it("builds once, mounts read-only at /env with the dependency and the generated file, and is found again", async () => {
    const lines: string[] = [];
    const spec = offlineSpec(fx.wheels, [GENERATE_VERSION]);
    const layer = await ensureLayer({ repoPath: repo, commit, spec, log: (l) => lines.push(l) });
    expect(layer.manifest.status).toBe("ok");
    expect(layer.manifest.generated_files).toBeGreaterThan(0);
    expect(layer.manifest.commands.map((c) => c.exit_code)).toEqual([0, 0, 0]);
    expect(lines.some((l) => l.startsWith(`building environment ${layer.key}`))).toBe(true);

    const sandbox = await layerSandbox(layer, repo, join(fx.root, "checkout"));
    try {
      const which = await sandbox.exec({ argv: ["bash", "-c", "command -v python3"], timeoutMs: 60_000 });
      expect(which.stdout.trim()).toBe("/env/bin/python3");
      const tests = await sandbox.exec({
        argv: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        timeoutMs: 120_000,
      });
      // The bug is still there (12 ≠ 9), but everything imports: the dependency and the generated file.
      expect(tests.stdout).toMatch(/1 failed, 1 passed/);
      const write = await sandbox.exec({ argv: ["bash", "-c", "touch /env/x"], timeoutMs: 60_000 });
      expect(write.exitCode).not.toBe(0);
      expect(write.output).toMatch(/Read-only file system/);
    } finally {
      await sandbox.close();
    }

    const again: string[] = [];
    const found = await ensureLayer({ repoPath: repo, commit, spec, log: (l) => again.push(l) });
    expect(found.key).toBe(layer.key);
    expect(found.manifest.created_at).toBe(layer.manifest.created_at);
    expect(again).toEqual([]);
  });

  it("rebuilds a damaged layer and says why", async () => {
    const spec = offlineSpec(fx.wheels, [GENERATE_VERSION, "true"]);
    const first = await ensureLayer({ repoPath: repo, commit, spec });
    unlinkSync(join(first.envDir, "bin", "python"));
    const lines: string[] = [];
    const rebuilt = await ensureLayer({ repoPath: repo, commit, spec, log: (l) => lines.push(l) });
    expect(lines[0]).toBe(`environment ${first.key}: env/bin/python is missing; building it again`);
    expect(rebuilt.key).toBe(first.key);
    expect(rebuilt.manifest.status).toBe("ok");
    expect(rebuilt.manifest.created_at).not.toBe(first.manifest.created_at);
  });

  it("a failing install line names itself and shows its output; the failure is listed", async () => {
    const spec = offlineSpec(fx.wheels, ["pip install acilab-no-such-package"]);
    const err = await ensureLayer({ repoPath: repo, commit, spec }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnvBuildError);
    const message = (err as Error).message;
    expect(message).toContain("install line 3 of 3 failed (exit 1): pip install acilab-no-such-package");
    expect(message).toMatch(/No matching distribution found for acilab-no-such-package/);
    expect(message).toMatch(/The whole log: .*build\.log/);
    const failed = listLayers(fx.store).filter((l) => l.manifest?.status === "failed");
    expect(failed.length).toBe(1);
    // Remembered: the next use says so at once, with the log, instead of building it again.
    const lines: string[] = [];
    const again = await ensureLayer({ repoPath: repo, commit, spec, log: (l) => lines.push(l) }).catch(
      (e: unknown) => e,
    );
    expect(again).toBeInstanceOf(EnvBuildError);
    expect((again as Error).message).toMatch(
      /did not build on .*install line 3 of 3 failed[\s\S]*build\.log[\s\S]*--force` or `acilab env prune --failed` tries again/,
    );
    expect(lines.some((l) => l.startsWith("building environment"))).toBe(false);
    expect(listLayers(fx.store).find((l) => l.key === failed[0]?.key)?.manifest?.created_at).toBe(
      failed[0]?.manifest?.created_at,
    );
  });

  it("never runs an interpreter named by an instance on the host: a script is refused unrun", async () => {
    const marker = join(fx.root, "ran-on-host");
    const script = join(fx.root, "python3-evil");
    writeFileSync(script, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    await expect(
      ensureLayer({ repoPath: repo, commit, spec: { ...offlineSpec(fx.wheels), python: script } }),
    ).rejects.toThrow(/is .*python3-evil, which is not an executable binary/);
    expect(existsSync(marker)).toBe(false);
  });

  it("an interpreter that does not exist is named, with what to give instead", async () => {
    const spec = { ...offlineSpec(fx.wheels), python: join(fx.root, "no", "python3") };
    await expect(ensureLayer({ repoPath: repo, commit, spec })).rejects.toThrow(
      /interpreter ".*no\/python3" not found \(no such file\); name one with --python/,
    );
  });
});
