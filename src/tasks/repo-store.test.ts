import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRepository, gitRepositoryAt, reposDir, storeNames } from "./repo-store.js";

let store: string;
const saved = process.env.ACILAB_NO_CLONE;

beforeAll(() => {
  process.env.ACILAB_NO_CLONE = "1";
  store = mkdtempSync(join(tmpdir(), "acilab-store-"));
  const git = (...args: string[]) => execFileSync("git", args, { stdio: "ignore" });
  // The three layouts: a work tree, a bare repository, a folder holding one at repo/.
  git("init", "-q", join(store, "acme+tree"));
  git("init", "-q", "--bare", join(store, "acme__bare"));
  mkdirSync(join(store, "acme+snap"));
  git("init", "-q", "--bare", join(store, "acme+snap", "repo"));
  mkdirSync(join(store, "acme"), { recursive: true });
  git("init", "-q", join(store, "acme", "nested"));
});

afterAll(() => {
  if (saved === undefined) delete process.env.ACILAB_NO_CLONE;
  else process.env.ACILAB_NO_CLONE = saved;
  rmSync(store, { recursive: true, force: true });
});

describe("the repository store", () => {
  it("finds OWNER+NAME, OWNER__NAME and OWNER/NAME, as a work tree, bare, or at repo/", () => {
    expect(findRepository("acme/tree", store)).toBe(join(store, "acme+tree"));
    expect(findRepository("acme/bare", store)).toBe(join(store, "acme__bare"));
    expect(findRepository("acme/snap", store)).toBe(join(store, "acme+snap", "repo"));
    expect(findRepository("acme/nested", store)).toBe(join(store, "acme", "nested"));
    expect(storeNames("a/b")).toEqual(["a+b", "a__b", join("a", "b")]);
    expect(gitRepositoryAt(join(store, "nothing"))).toBeUndefined();
  });

  it("names the folder to provide when a repository is missing", () => {
    expect(() => findRepository("acme/missing", store)).toThrow(
      `repository acme/missing is missing: it is not in ${store}, and cloning it failed (cloning is turned off by ACILAB_NO_CLONE=1). Put a clone — a work tree, a bare repository, or a folder holding one at repo/ — at ${join(store, "acme+missing")}`,
    );
    expect(() => findRepository("../etc", store)).toThrow(/not owner\/name/);
  });

  it("takes --repos, else $ACILAB_REPOS", () => {
    expect(reposDir("/a", { ACILAB_REPOS: "/b" })).toBe("/a");
    expect(reposDir(undefined, { ACILAB_REPOS: "/b" })).toBe("/b");
    expect(reposDir(undefined, {})).toBeUndefined();
  });
});
