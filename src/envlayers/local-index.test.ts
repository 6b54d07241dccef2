import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { distribution, installsOn, localVersions, relaxLocally } from "./local-index.js";
import type { PipSources } from "./sources.js";

const root = mkdtempSync(join(tmpdir(), "acilab-localindex-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A find-links folder and a simple index, as this machine's pip configuration names them.
const wheels = join(root, "wheels");
mkdirSync(wheels);
for (const f of [
  "attrs-26.1.0-py3-none-any.whl",
  "tomli-2.4.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
  "Jinja2-3.1.6-py3-none-any.whl",
  "mpmath-1.3.0.tar.gz",
])
  writeFileSync(join(wheels, f), "");
mkdirSync(join(root, "simple", "attrs"), { recursive: true });
writeFileSync(
  join(root, "simple", "attrs", "index.html"),
  '<a href="../../files/attrs-21.4.0-py2.py3-none-any.whl#sha256=x">attrs-21.4.0-py2.py3-none-any.whl</a>',
);
const sources: PipSources = {
  indexUrl: undefined,
  extraIndexUrls: [`file://${join(root, "simple")}`],
  findLinks: [wheels],
  constraints: [],
  noIndex: false,
  origin: [],
};

describe("the local indexes", () => {
  it("read names and versions from distribution file names", () => {
    expect(distribution("Jinja2-3.1.6-py3-none-any.whl")).toEqual({
      name: "jinja2",
      version: "3.1.6",
      wheel: true,
    });
    expect(distribution("mpmath-1.3.0.tar.gz")).toEqual({ name: "mpmath", version: "1.3.0", wheel: false });
    expect(distribution("README.txt")).toBeUndefined();
  });

  it("tell which wheels install on a Python", () => {
    expect(installsOn("tomli-2.4.1-cp311-cp311-manylinux2014_x86_64.whl", "3.9")).toBe(false);
    expect(installsOn("tomli-2.4.1-cp311-cp311-manylinux2014_x86_64.whl", "3.11")).toBe(true);
    expect(installsOn("x-1-cp38-abi3-manylinux_2_17_x86_64.whl", "3.12")).toBe(true);
    expect(installsOn("x-1-py2.py3-none-any.whl", "3.9")).toBe(true);
    expect(installsOn("x-1-cp39-cp39-macosx_11_0_arm64.whl", "3.9")).toBe(false);
  });

  it("list a package's versions for a Python, from the index and the folder", () => {
    expect(localVersions("attrs", sources, "3.9")?.sort()).toEqual(["21.4.0", "26.1.0"]);
    expect(localVersions("tomli", sources, "3.9")).toEqual([]);
    expect(localVersions("tomli", { ...sources, extraIndexUrls: [], findLinks: [] }, "3.9")).toBeUndefined();
  });

  it("move every pin they lack to the nearest they have, at once, and leave the rest", () => {
    const { spec, changes } = relaxLocally(
      {
        python: "python3.9",
        install: [],
        packages: [["attrs==23.1.0", "mpmath==1.3.0", "tomli==2.0.1", "pytest"]],
      },
      sources,
      "3.9",
    );
    expect(spec.packages).toEqual([["attrs==21.4.0", "mpmath==1.3.0", "tomli==2.0.1", "pytest"]]);
    expect(changes).toEqual(["attrs==23.1.0 → attrs==21.4.0 (pins relaxed)"]);
  });
});
