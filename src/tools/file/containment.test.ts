import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolContext, ToolResult } from "../types.js";
import { fileToolContext } from "./context.js";
import { createFileTools } from "./factory.js";

let base: string;
let outside: string;
let ctx: ToolContext;
const tools = createFileTools({ lint: false });

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "acilab-contain-")));
  outside = join(base, "outside");
  mkdirSync(join(base, "ws"));
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "TOKEN\n");
  ctx = fileToolContext(join(base, "ws"));
  symlinkSync(outside, join(ctx.root, "link"));
  symlinkSync(join(outside, "secret.txt"), join(ctx.root, "secret-link.txt"));
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

function expectRefused(result: ToolResult): void {
  expect(result.error).toBe("outside_workspace");
  expect(result.output).toMatch(/^error: /);
  expect(result.output).not.toContain("TOKEN");
}

describe("paths outside the workspace", () => {
  it("are refused by every tool, through .. and through symlinks", async () => {
    for (const path of [
      "../outside/secret.txt",
      "link/secret.txt",
      "secret-link.txt",
      join(outside, "secret.txt"),
    ]) {
      expectRefused(await tools.view.execute({ path }, ctx));
      expectRefused(await tools.read_file.execute({ path }, ctx));
      expectRefused(await tools.str_replace.execute({ path, old: "TOKEN", new: "x" }, ctx));
      expectRefused(await tools.insert.execute({ path, line: 0, text: "x" }, ctx));
      expectRefused(await tools.edit.execute({ path, start: 1, end: 1, replacement: "x" }, ctx));
      expectRefused(await tools.write_file.execute({ path, content: "x" }, ctx));
      expectRefused(await tools.undo.execute({ path }, ctx));
    }
    expectRefused(await tools.create_file.execute({ path: "../outside/new.txt", content: "x" }, ctx));
    expectRefused(await tools.create_file.execute({ path: "link/sub/new.txt", content: "x" }, ctx));
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("TOKEN\n");
    expect(() => readFileSync(join(outside, "new.txt"))).toThrow();
  });
});
