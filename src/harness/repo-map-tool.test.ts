import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileToolContext, type ToolContext, ToolRegistry } from "../tools/index.js";
import { createRepoMapTool } from "./repo-map-tool.js";

let dir: string;
let outside: string;
let ctx: ToolContext;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(ctx.root, path)), { recursive: true });
  writeFileSync(join(ctx.root, path), text);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-repo-map-tool-"));
  outside = mkdtempSync(join(tmpdir(), "acilab-repo-map-tool-out-"));
  ctx = fileToolContext(dir);
  write("billing/invoice.py", "class Invoice:\n    def total_amount(self):\n        return 0\n");
  write(
    "billing/report.py",
    "from billing.invoice import Invoice\n\ndef monthly_report():\n    return Invoice().total_amount()\n",
  );
  write("api/server.ts", "export function startServer(port: number) {}\n");
  write("api/main.ts", 'import { startServer } from "./server";\nstartServer(8080);\n');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("repo_map", () => {
  it("shows the map of a workspace with a footer that counts it", async () => {
    const tool = createRepoMapTool();
    expect(tool.kind).toBe("read");
    const result = await tool.execute({}, ctx);
    expect(result.error).toBeUndefined();
    expect(result.output).toContain("billing/invoice.py:\n");
    expect(result.output).toContain("│class Invoice:");
    expect(result.output).toContain("│    def total_amount(self):");
    expect(result.output).toContain("│export function startServer(port: number) {}");
    expect(result.output).toMatch(
      /\[repo map: \d+ definitions from 4 source files; 0 other files skipped\]$/,
    );
  });

  it("validates its input through the registry: max_tokens is capped at 8192", async () => {
    const registry = new ToolRegistry([createRepoMapTool()]);
    const result = await registry.call({ id: "1", name: "repo_map", input: { max_tokens: 100_000 } }, ctx);
    expect(result.error).toBe("invalid_arguments");
  });

  it("focuses on the paths and identifiers given, within max_tokens", async () => {
    const tool = createRepoMapTool();
    const small = await tool.execute({ paths: ["api/"], identifiers: ["startServer"], max_tokens: 20 }, ctx);
    expect(small.output).toContain("startServer");
    expect(small.output).not.toContain("Invoice");
  });

  it("refuses a path outside the workspace and names a missing one", async () => {
    const tool = createRepoMapTool();
    const out = await tool.execute({ paths: ["../elsewhere"] }, ctx);
    expect(out.error).toBe("outside_workspace");
    const missing = await tool.execute({ paths: ["nope/"] }, ctx);
    expect(missing.error).toBe("not_found");
    expect(missing.output).toContain("nope/ does not exist");
  });

  it("does not follow a link out of the workspace", async () => {
    writeFileSync(join(outside, "secret.ts"), "export function hostSecretFunction() {}\n");
    symlinkSync(join(outside, "secret.ts"), join(ctx.root, "api/secret.ts"));
    const result = await createRepoMapTool().execute({ max_tokens: 8192 }, ctx);
    expect(result.output).not.toContain("hostSecretFunction");
    expect(result.output).toContain("1 other files skipped");
  });

  it("keeps its tags in cacheDir, and says so plainly when there is nothing to map", async () => {
    const cacheDir = join(outside, "cache");
    await createRepoMapTool({ cacheDir }).execute({}, ctx);
    expect(readdirSync(cacheDir).some((f) => f.startsWith("repomap-"))).toBe(true);
    const empty = fileToolContext(mkdtempSync(join(outside, "empty-")));
    writeFileSync(join(empty.root, "notes.md"), "# notes\n");
    const result = await createRepoMapTool().execute({}, empty);
    expect(result.output).toContain(
      "no map: the workspace has no Python, TypeScript, JavaScript, Go or Rust files",
    );
  });
});
