import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TrustStore, TrustStoreError } from "./trust.js";

let dir: string;
let configDir: string;
let repo: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-trust-"));
  configDir = join(dir, "config");
  repo = join(dir, "repo");
  mkdirSync(join(repo, "packages", "a"), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("TrustStore", () => {
  it("round-trips: trust, list, isTrusted, revoke — stored in trusted.json by real path", () => {
    const store = new TrustStore(configDir);
    expect(store.isTrusted(repo)).toBe(false);
    expect(store.list()).toEqual([]);
    const at = new Date("2026-01-02T03:04:05.000Z");
    expect(store.trust(repo, at)).toBe(repo);
    expect(new TrustStore(configDir).isTrusted(repo)).toBe(true);
    expect(store.list()).toEqual([{ path: repo, at: at.toISOString() }]);
    expect(JSON.parse(readFileSync(join(configDir, "trusted.json"), "utf8"))).toEqual({
      [repo]: { trusted: true, at: at.toISOString() },
    });
    expect(store.revoke(repo)).toBe(true);
    expect(store.revoke(repo)).toBe(false);
    expect(store.isTrusted(repo)).toBe(false);
    // Written by rename: no temporary file left beside it.
    expect(readdirSync(configDir)).toEqual(["trusted.json"]);
  });

  it("a symlink to a trusted repository is that repository", () => {
    const store = new TrustStore(configDir);
    const link = join(dir, "link");
    symlinkSync(repo, link);
    store.trust(link);
    expect(store.list().map((e) => e.path)).toEqual([repo]);
    expect(store.isTrusted(repo)).toBe(true);
    expect(store.isTrusted(link)).toBe(true);
  });

  it("trusting a repository trusts its sub-folders, not its parent or a sibling with a longer name", () => {
    const store = new TrustStore(configDir);
    store.trust(repo);
    expect(store.isTrusted(join(repo, "packages", "a"))).toBe(true);
    expect(store.trustedBy(join(repo, "packages", "a"))).toBe(repo);
    expect(store.isTrusted(dir)).toBe(false);
    mkdirSync(`${repo}-evil`);
    expect(store.isTrusted(`${repo}-evil`)).toBe(false);
    // A sub-folder trusted through its parent has no entry of its own to revoke.
    expect(store.revoke(join(repo, "packages", "a"))).toBe(false);
  });

  it("a malformed trusted.json is an error naming the file and saying to fix or delete it", () => {
    mkdirSync(configDir);
    const file = join(configDir, "trusted.json");
    for (const text of ["{ nope", '{"/x": true}', "[]"]) {
      writeFileSync(file, text);
      let caught: unknown;
      try {
        new TrustStore(configDir).isTrusted(repo);
      } catch (error) {
        caught = error;
      }
      expect(caught, text).toBeInstanceOf(TrustStoreError);
      expect((caught as Error).message).toContain(file);
      expect((caught as Error).message).toMatch(/fix it or delete it/);
    }
  });

  it("an entry with trusted: false trusts nothing", () => {
    mkdirSync(configDir);
    writeFileSync(join(configDir, "trusted.json"), JSON.stringify({ [repo]: { trusted: false, at: "x" } }));
    expect(new TrustStore(configDir).isTrusted(repo)).toBe(false);
  });
});
