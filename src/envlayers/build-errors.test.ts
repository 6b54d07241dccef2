import { describe, expect, it } from "vitest";
import { EnvBuildError } from "./build-errors.js";

describe("EnvBuildError.summary, the mirror's one line for a failed build", () => {
  it("names the failed line, the output line that says why, and the log (not git's bare exit 128)", () => {
    const err = new EnvBuildError(
      [
        "install line 1 of 2 failed (exit 128): npm ci",
        "npm warn using --force",
        "npm error command git --no-replace-objects ls-remote ssh://git@github.com/x/y.git",
        "npm error fatal: unable to access 'https://github.com/x/y.git/': Could not resolve host",
        "npm error A complete log of this run can be found in: /tmp/npm.log",
        "The whole log: /store/abc/build.log",
      ].join("\n"),
      "/store/abc/build.log",
    );
    expect(err.summary).toBe(
      "install line 1 of 2 failed (exit 128): npm ci — npm error fatal: unable to access 'https://github.com/x/y.git/': Could not resolve host (log: /store/abc/build.log)",
    );
  });

  it("falls back to the output's last line, and leaves the remembered note out", () => {
    const err = new EnvBuildError(
      "environment k did not build on 2026-12-06 09:00: pip install .\nsomething odd\n(remembered, not built again: …)",
      "/s/build.log",
    );
    expect(err.summary).toBe(
      "environment k did not build on 2026-12-06 09:00: pip install . — something odd (log: /s/build.log)",
    );
  });

  it("takes pip's reason over the notices after it", () => {
    const err = new EnvBuildError(
      [
        "install line 2 of 3 failed (exit 1): pip install -e .",
        "ERROR: Could not find a version that satisfies the requirement Unidecode>=0.04.16 (from versions: none)",
        "ERROR: No matching distribution found for Unidecode>=0.04.16",
        "[notice] A new release of pip is available: 23.2.1 -> 25.0",
      ].join("\n"),
      "/s/build.log",
    );
    expect(err.summary).toBe(
      "install line 2 of 3 failed (exit 1): pip install -e . — ERROR: No matching distribution found for Unidecode>=0.04.16 (log: /s/build.log)",
    );
  });
});
