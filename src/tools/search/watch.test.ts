import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WatchClient } from "./watch-client.js";
import type { WatchResponse } from "./watch-protocol.js";

let root: string;
let client: WatchClient;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "acilab-watch-")));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "a.py"), "aaaa\n");
});

afterEach(async () => {
  await client.stop();
  rmSync(root, { recursive: true, force: true });
});

async function sync(): Promise<Extract<WatchResponse, { ok: true }>> {
  const r = await client.request({ op: "sync", root });
  if (!r.ok) throw new Error(r.reason);
  return r;
}

describe("the watcher thread", () => {
  it("reports every change made before a sync, even one made just before it", async () => {
    client = new WatchClient();
    expect((await client.request({ op: "watch", root })).ok).toBe(true);
    for (let i = 0; i < 30; i++) {
      // Same size every time: only the event can tell the index the bytes changed.
      writeFileSync(join(root, "src", "a.py"), `${String(i).padStart(4, "0")}\n`);
      expect((await sync()).content, `write ${i}`).toContain("src/a.py");
    }
  });

  it("watches directories created later, and says which entries changed", async () => {
    client = new WatchClient();
    await client.request({ op: "watch", root });
    mkdirSync(join(root, "new", "deep"), { recursive: true });
    writeFileSync(join(root, "new", "deep", "f.ts"), "x\n");
    expect((await sync()).structural).toContain("\0new");
    appendFileSync(join(root, "new", "deep", "f.ts"), "y\n");
    writeFileSync(join(root, "src", ".gitignore"), "*.log\n");
    const changes = await sync();
    expect(changes.content).toContain("new/deep/f.ts");
    expect(changes.ignore).toContain("src");
  });

  it("keeps watching a directory deleted and created again (ext4 may reuse its inode number)", async () => {
    client = new WatchClient();
    await client.request({ op: "watch", root });
    for (let i = 0; i < 10; i++) {
      rmSync(join(root, "src"), { recursive: true });
      mkdirSync(join(root, "src"));
      writeFileSync(join(root, "src", "a.py"), "aaaa\n");
      expect((await sync()).structural).toContain("\0src");
      // In place, same size: only a watch on the new directory can report it.
      writeFileSync(join(root, "src", "a.py"), "bbbb\n");
      expect((await sync()).content, `round ${i}`).toContain("src/a.py");
    }
  });

  it("gives up on a workspace when a burst of events may have overflowed the kernel queue", async () => {
    client = new WatchClient({ overflowSuspectEvents: 20 });
    await client.request({ op: "watch", root });
    // While the thread is blocked, the events wait in the kernel queue and arrive as one burst.
    await client.request({ op: "stall", ms: 500 });
    for (let i = 0; i < 100; i++) writeFileSync(join(root, "src", `f${i}.py`), "x\n");
    expect((await sync()).failed).toMatch(/overflow/);
  });

  it("gives up when the workspace itself is deleted", async () => {
    client = new WatchClient();
    await client.request({ op: "watch", root });
    rmSync(root, { recursive: true, force: true });
    expect((await sync()).failed).toMatch(/moved or deleted/);
  });
});
