import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitFiles, initRepo } from "../builders/testing.js";
import { runCli } from "./testing.js";

const store = mkdtempSync(join(tmpdir(), "acilab-envcli-"));
beforeAll(() => {
  chmodSync(store, 0o755); // the sandbox user builds in it
  process.env.ACILAB_ENV_DIR = store;
});
afterAll(() => {
  delete process.env.ACILAB_ENV_DIR;
  rmSync(store, { recursive: true, force: true });
});

/** A layer folder as a build leaves it, with no venv in it: listed as damaged. */
function fakeLayer(key: string, created: string): string {
  const dir = join(store, key);
  mkdirSync(join(dir, "env"), { recursive: true });
  const manifest = {
    key,
    status: "ok",
    created_at: created,
    repo: "/r",
    commit: "c".repeat(40),
    spec: { python: "python3", install: ["pip install -e ."] },
    interpreter: { language: "python", executable: "/usr/bin/python3.11", version: "3.11.2", prefix: "/usr" },
    sources: "none",
    commands: [],
    generated_files: 0,
    files: 0,
    bytes: 0,
    build_seconds: 1,
  };
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
  return dir;
}

describe("acilab env", () => {
  it("lists an empty store, and a damaged layer as damaged", async () => {
    expect((await runCli(["env", "list"])).out).toMatch(/^no environments in /);
    fakeLayer("0123456789abcdef", "2020-01-01T00:00:00.000Z");
    const listed = await runCli(["env", "list"]);
    expect(listed.out).toMatch(/0123456789abcdef\s+damaged\s+python 3\.11\.2/);
    const json = JSON.parse((await runCli(["env", "list", "--json"])).out);
    expect(json.damage).toBe("env/pyvenv.cfg is missing");
  });

  it("prunes what it is told to, and nothing without being told", async () => {
    const old = fakeLayer("00000000000000aa", "2020-01-01T00:00:00.000Z");
    const fresh = fakeLayer("00000000000000bb", new Date().toISOString());
    const none = await runCli(["env", "prune"]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/say what to remove/);
    expect((await runCli(["env", "prune", "ffffffffffffffff"])).err).toMatch(
      /no environment ffffffffffffffff/,
    );
    const pruned = await runCli(["env", "prune", "--older-than", "30"]);
    expect(pruned.out).toMatch(/removed 00000000000000aa/);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    await runCli(["env", "prune", "--all"]);
    expect(existsSync(fresh)).toBe(false);
  });

  it("refuses a commit the repository does not have, and --repo with --instances", async () => {
    const r = await runCli(["env", "build", "--repo", store, "--commit", "nope"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/nope is not a commit of/);
    expect((await runCli(["env", "build", "--repo", store, "--instances", "x.jsonl"])).err).toMatch(
      /give --repo or --instances, not both/,
    );
  });

  it("builds from a relative --repo, and env list names the repository", async () => {
    const repo = join(store, "calc-repo");
    await initRepo(repo);
    await commitFiles(repo, { "calc.py": "X = 1\n" }, "calc");
    const r = await runCli([
      "env",
      "build",
      "--repo",
      relative(process.cwd(), repo),
      "--python",
      "/usr/bin/python3",
      "--install",
      "true",
    ]);
    expect(r.err).not.toMatch(/is not in/);
    expect(r.code).toBe(0);
    const listed = await runCli(["env", "list"]);
    expect(listed.out).toContain(`${repo} — true`);
  });
});
