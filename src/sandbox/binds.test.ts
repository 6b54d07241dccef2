import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkBindDest, resolveReadOnlyBinds } from "./binds.js";

const dir = mkdtempSync(join(tmpdir(), "acilab-binds-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("binds at another path", () => {
  it("shows a host folder where asked", () => {
    expect(resolveReadOnlyBinds([{ source: dir, dest: "/env" }], dir)).toEqual([
      { source: dir, dest: "/env" },
    ]);
  });

  it("never over the sandbox's own folders or the workspace", () => {
    for (const dest of ["/", "/usr/bin", "/etc", "/proc/self", "/workspace", "/workspace/.git", "/tmp/x"])
      expect(() => checkBindDest(dest), dest).toThrow(/cannot mount over/);
    expect(() => checkBindDest("env")).toThrow(/absolute path/);
    expect(() => checkBindDest("/opt/../usr")).toThrow(/without "\.\."/);
    expect(checkBindDest("/root/.pyenv/versions/3.9.18")).toBe("/root/.pyenv/versions/3.9.18");
  });
});
