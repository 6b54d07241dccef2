import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { forgetOwner, listOwners, OWNER_TOKEN, ownerParent, ownerState, ownerToken } from "./index.js";

const parent = mkdtempSync(join(tmpdir(), "acilab-owners-test-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe("owner markers", () => {
  it("says alive for this process, dead for one that exited, unknown without a marker", async () => {
    // This process's token may have been made by an earlier test file in the same worker, in the
    // default parent: its marker is wherever ownerParent() says.
    const mine = ownerToken(parent);
    expect(mine).toMatch(OWNER_TOKEN);
    expect(await ownerState(mine, parent)).toBe("alive");
    expect(listOwners(ownerParent())).toContain(mine);

    // Another process takes a token (its marker listens) and is killed: the kernel closes the socket,
    // and the socket file stays behind (a clean exit removes it; there is nothing to sweep then).
    const child = spawnSync(
      process.execPath,
      [
        "--import",
        import.meta.resolve("tsx"), // from this package, whatever the working directory
        "-e",
        `const { existsSync } = await import("node:fs");
         const { ownerToken, ownersDir } = await import(${JSON.stringify(new URL("./index.ts", import.meta.url).pathname)});
         const token = ownerToken(${JSON.stringify(parent)});
         console.log(token);
         const marker = ownersDir(${JSON.stringify(parent)}) + "/" + token + ".sock";
         while (!existsSync(marker)) await new Promise((r) => setTimeout(r, 5));
         process.kill(process.pid, "SIGKILL");`,
      ],
      { encoding: "utf8" },
    );
    const theirs = child.stdout.trim();
    expect(theirs, child.stderr).toMatch(OWNER_TOKEN);
    expect(listOwners(parent)).toContain(theirs);
    expect(await ownerState(theirs, parent)).toBe("dead");
    forgetOwner(theirs, parent);
    expect(listOwners(parent)).not.toContain(theirs);
    // Forgotten, it stays proved dead: a run resumed after a sweep removed the marker may take over.
    expect(await ownerState(theirs, parent)).toBe("dead");

    // No marker at all (another container's /tmp, another user's): not proof of anything.
    expect(await ownerState("4194305-0-0badc0de", parent)).toBe("unknown");
    expect(await ownerState("not a token", parent)).toBe("unknown");
  });
});
