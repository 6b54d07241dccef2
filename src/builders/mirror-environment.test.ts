import { describe, expect, it } from "vitest";
import { withoutOwnVersion } from "./mirror-environment.js";

describe("the dependency files' fingerprint", () => {
  it("ignores a release's version bump in package.json, its lock file and pyproject.toml", () => {
    const pkg = (version: string, deps: Record<string, string>) =>
      JSON.stringify({
        name: "x",
        version,
        scripts: { test: "mocha", prepare: "tsc" },
        devDependencies: deps,
      });
    expect(withoutOwnVersion("package.json", pkg("1.0.0", { mocha: "^10" }))).toBe(
      withoutOwnVersion("package.json", pkg("1.0.1", { mocha: "^10" })),
    );
    expect(withoutOwnVersion("package.json", pkg("1.0.0", { mocha: "^10" }))).not.toBe(
      withoutOwnVersion("package.json", pkg("1.0.0", { mocha: "^11" })),
    );
    const lock = (version: string) =>
      JSON.stringify({
        name: "x",
        version,
        lockfileVersion: 3,
        packages: { "": { version }, "node_modules/a": { version: "1.2.3" } },
      });
    expect(withoutOwnVersion("package-lock.json", lock("1.0.0"))).toBe(
      withoutOwnVersion("package-lock.json", lock("2.0.0")),
    );
    expect(withoutOwnVersion("pyproject.toml", '[project]\nname = "x"\nversion = "1.0"\n')).toBe(
      withoutOwnVersion("pyproject.toml", '[project]\nname = "x"\nversion = "1.1"\n'),
    );
  });

  it("a file that is not JSON counts as its text", () => {
    expect(withoutOwnVersion("package.json", "{")).toBe("{");
  });
});
