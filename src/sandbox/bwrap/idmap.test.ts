/**
 * The idmapped view of a user's directory (idmap.ts) at the BwrapSandbox level: both ways a sandbox
 * starts (the spawner, the sh wrapper), the code-action channel through the extra step, read-only
 * parts of the workspace, nothing left in the host's mount table, and a clear refusal where the file
 * system cannot do it. The CLI cases (modes 0700/0755, owners) are in test/sandbox/user-workspace.test.ts.
 */
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { needingAll, notRoot, unless } from "../../testing/needs.js";
import { HANG_GUARD_MS } from "../../testing/time.js";
import { probeBwrap } from "./detect.js";
import { ownerMapping } from "./idmap.js";
import { sandboxIdentity } from "./owner.js";
import { BwrapSandbox } from "./sandbox.js";
import { useSpawner } from "./spawner.js";

const probe = await probeBwrap();
const _asRoot = process.getuid?.() === 0;

needingAll([
  ["bwrap", unless(probe)],
  ["root", notRoot],
]).describe("a user's directory through an idmapped mount", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "acilab-idmap-test-")); // root's, 0700
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const spawner of [true, false]) {
    it(`works through ${spawner ? "the spawner" : "the sh wrapper"}, channel included`, async () => {
      useSpawner(spawner);
      const sandbox = new BwrapSandbox({
        workspace: dir,
        mapWorkspaceOwner: true,
        readOnlyBinds: [{ inWorkspace: ".git" }],
      });
      try {
        let fromProgram = "";
        const r = await sandbox.exec({
          argv: [
            "sh",
            "-c",
            "id -u; echo made > new-$0; cat .git/HEAD; (echo x > .git/HEAD) 2>/dev/null || echo read-only; echo hi >&3; read reply <&4; echo $reply",
            spawner ? "spawner" : "shell",
          ],
          timeoutMs: HANG_GUARD_MS,
          channel: {
            open({ fromProgram: from, toProgram }) {
              from.on("data", (d: Buffer) => {
                fromProgram += d.toString();
                toProgram.write("back\n");
              });
            },
          },
        });
        expect(r.stderr).toBe("");
        expect(r.stdout).toBe("1000\nref: refs/heads/main\nread-only\nback\n");
        expect(fromProgram).toBe("hi\n");
        const made = statSync(join(dir, `new-${spawner ? "spawner" : "shell"}`));
        expect([made.uid, made.gid]).toEqual([0, 0]);
      } finally {
        await sandbox.close();
        useSpawner(true);
      }
      // The mount lived in the command's own mount namespace: the host's table never had it.
      expect(readFileSync("/proc/self/mountinfo", "utf8")).not.toContain("acilab-idmap-");
    });
  }

  it("is not needed for a directory the sandbox user already owns, and never hands one over", () => {
    const id = sandboxIdentity();
    const theirs = mkdtempSync(join(tmpdir(), "acilab-idmap-own-"));
    try {
      expect(ownerMapping(dir, id)?.owner).toEqual({ uid: 0, gid: 0 });
      chownSync(theirs, id.uid, id.gid);
      expect(ownerMapping(theirs, id)).toBeUndefined();
      expect(statSync(dir).uid).toBe(0);
    } finally {
      rmSync(theirs, { recursive: true, force: true });
    }
  });

  it("refuses, naming the directory, the kernel's reason and what to do, where the file system cannot", () => {
    // sysfs has no idmapped mounts.
    expect(() => ownerMapping("/sys/kernel", sandboxIdentity())).toThrow(
      /^sandbox: cannot show \/sys\/kernel to the sandbox user \(uid 61000\) as its own: an idmapped mount \(mount_setattr MOUNT_ATTR_IDMAP\) failed: Invalid argument \(errno 22\)\. Run acilab as the directory's owner instead of root .*\(chown -R 61000:61000 \/sys\/kernel\)$/,
    );
  });
});
