import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_SHARED_CACHES, sharedCache, TagsCache } from "./cache.js";
import { listFiles } from "./list-files.js";
import { estimateTokens } from "./render.js";
import { buildRepoMap, repoMapPrefix } from "./repo-map.js";

let root: string;
let outside: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A small repository in four languages: config.py is used by both Python files, the rest by one or none. */
function smallRepo(): void {
  write(
    "app/config.py",
    "class Settings:\n    def load_settings(self):\n        return 1\n\ndef read_config_file(path):\n    return path\n",
  );
  write(
    "app/main.py",
    "from app.config import read_config_file, Settings\n\ndef main():\n    read_config_file('x')\n    Settings().load_settings()\n",
  );
  write(
    "app/worker.py",
    "from app.config import read_config_file\n\ndef work():\n    return read_config_file('y')\n",
  );
  write(
    "web/client.ts",
    "export interface Client { fetchOrders(): void }\nexport function makeClient(): Client { return { fetchOrders() {} }; }\n",
  );
  write("web/page.ts", 'import { makeClient } from "./client";\nexport const page = () => makeClient();\n');
  write("svc/store.go", "package svc\n\ntype OrderStore struct{}\n\nfunc (s *OrderStore) SaveOrder() {}\n");
  write("core/lib.rs", "pub struct Ledger {}\nimpl Ledger { pub fn balance_of(&self) -> i64 { 0 } }\n");
  write("README.md", "# not code\n");
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "acilab-repomap-")));
  outside = realpathSync(mkdtempSync(join(tmpdir(), "acilab-repomap-outside-")));
  smallRepo();
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("buildRepoMap", () => {
  it("maps every language, most used first, and counts what it skipped", async () => {
    const map = await buildRepoMap({ root, cache: new TagsCache() });
    expect(map.files).toBe(7);
    expect(map.skipped).toBe(1); // README.md
    expect(map.parsed).toBe(7);
    expect(map.text).toContain("app/config.py:\n");
    expect(map.text).toContain("│def read_config_file(path):");
    expect(map.text).toContain("│type OrderStore struct{}");
    expect(map.text).toContain("│impl Ledger { pub fn balance_of(&self) -> i64 { 0 } }");
    expect(map.definitions).toBeGreaterThan(5);
    // A tight budget keeps the most used definition.
    const tight = await buildRepoMap({ root, cache: new TagsCache(), budgetTokens: 20 });
    expect(estimateTokens(tight.text)).toBeLessThanOrEqual(20);
    expect(tight.text).toContain("read_config_file");
  });

  it("builds warm without parsing, and re-parses only a file that changed", async () => {
    const cache = new TagsCache();
    const cold = await buildRepoMap({ root, cache });
    const warm = await buildRepoMap({ root, cache });
    expect(warm.parsed).toBe(0);
    expect(warm.text).toBe(cold.text);
    write(
      "web/page.ts",
      'import { makeClient } from "./client";\nexport const page = () => makeClient();\nexport function renderPageFooter() {}\n',
    );
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, "web/page.ts"), later, later);
    const touched = await buildRepoMap({ root, cache, budgetTokens: 4096 });
    expect(touched.parsed).toBe(1);
    expect(touched.text).toContain("renderPageFooter");
  });

  it("keeps the tags on disk: a new process (a new cache on the same file) parses nothing", async () => {
    const cacheDir = join(outside, "cache");
    const first = await buildRepoMap({ root, cacheDir });
    expect(readdirSync(cacheDir).filter((f) => f.endsWith(".json"))).toHaveLength(1);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const file = join(cacheDir, readdirSync(cacheDir)[0] as string);
    const second = await buildRepoMap({ root, cache: new TagsCache(file) });
    expect(second.parsed).toBe(0);
    expect(second.text).toBe(first.text);
  });

  it("skips a symbolic link that leads out of the root, and never reads through it", async () => {
    writeFileSync(join(outside, "secret.py"), "def stolen_secret_function():\n    pass\n");
    symlinkSync(join(outside, "secret.py"), join(root, "app/leak.py"));
    symlinkSync(outside, join(root, "linked_dir"));
    const map = await buildRepoMap({ root, cache: new TagsCache(), budgetTokens: 8192 });
    expect(map.text).not.toContain("stolen_secret_function");
    expect(map.files).toBe(7);
    expect(map.skipped).toBe(3); // README.md and the two links
    // Even when named explicitly.
    const named = await buildRepoMap({
      root,
      cache: new TagsCache(),
      files: ["app/leak.py", "linked_dir/secret.py"],
    });
    expect(named.files).toBe(0);
    expect(named.skipped).toBe(2);
  });

  it("never throws on a file with syntax errors, a huge file or binary junk", async () => {
    write("app/broken.py", "def half_written(:\n    pass\nclass StillHere:\n    pass\n");
    write("big/huge.ts", `export const BIG = "${"x".repeat(1024 * 1024 + 10)}";\n`);
    write("bin/junk.rs", "\u0000\u0001\u0002fn \uFFFD(\n");
    const map = await buildRepoMap({ root, cache: new TagsCache(), budgetTokens: 8192 });
    expect(map.text).toContain("class StillHere:");
    expect(map.text).not.toContain("BIG");
    expect(map.skipped).toBeGreaterThanOrEqual(2); // README.md, the huge file
  });

  it("leans toward mentioned files", async () => {
    const cache = new TagsCache();
    const plain = await buildRepoMap({ root, cache, budgetTokens: 30 });
    const focused = await buildRepoMap({
      root,
      cache,
      budgetTokens: 30,
      mentioned: { files: ["web/page.ts"] },
    });
    expect(plain.text).not.toContain("makeClient");
    expect(focused.text).toContain("makeClient");
  });

  it("gives a prompt prefix within its budget", async () => {
    const prefix = await repoMapPrefix(root, 200);
    expect(prefix.startsWith("A map of this repository")).toBe(true);
    expect(estimateTokens(prefix)).toBeLessThanOrEqual(200);
    expect(prefix).toContain("read_config_file");
  });
});

describe("listFiles", () => {
  it("walks a plain folder, leaving out dependency and build folders", async () => {
    write("node_modules/dep/index.js", "export const x = 1;\n");
    write("dist/out.js", "export const y = 1;\n");
    const files = await listFiles(root);
    expect(files).toContain("app/config.py");
    expect(files.some((f) => f.startsWith("node_modules/") || f.startsWith("dist/"))).toBe(false);
  });

  it("lists what git would commit in a work tree: tracked and untracked files, not ignored ones", async () => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root });
    write(".gitignore", "generated/\n");
    write("generated/out.py", "def generated_code(): pass\n");
    git("init", "-q");
    git("add", "app", ".gitignore");
    git("commit", "-qm", "init");
    const files = await listFiles(root);
    expect(files).toContain("app/config.py"); // tracked
    expect(files).toContain("web/client.ts"); // untracked, not ignored
    expect(files).not.toContain("generated/out.py");
  });
});

describe("the process's shared caches", () => {
  it("keeps the most recent repositories warm, not every one ever mapped", () => {
    const first = sharedCache("/repo/first");
    expect(sharedCache("/repo/first")).toBe(first);
    for (let i = 0; i < MAX_SHARED_CACHES; i++) sharedCache(`/repo/other-${i}`);
    expect(sharedCache("/repo/first")).not.toBe(first);
  });
});
