import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { needing } from "../../testing/needs.js";
import { describeUncarried, MAX_PATCH_DEPTH } from "./diff.js";
import { prepareSnapshot } from "./snapshot.js";
import {
  FIXTURE_FILES,
  makeDeepTree,
  makeScratch,
  makeSourceTree,
  mountedUnder,
  overlayWorksHere,
  treeFingerprint,
} from "./testing.js";
import type { Checkout, Snapshot } from "./types.js";

const canOverlay = await overlayWorksHere();
let scratch: string;
let snapshot: Snapshot;
let pristine: string;

beforeAll(async () => {
  scratch = makeScratch("diff");
  snapshot = await prepareSnapshot(makeSourceTree(scratch), { scratchDir: scratch });
  pristine = treeFingerprint(snapshot.dir);
});

const copySnapshots: Snapshot[] = [];

afterEach(async () => {
  await Promise.all([...snapshot.checkouts, ...copySnapshots.splice(0)].map((c) => c.dispose()));
});

afterAll(async () => {
  await snapshot.dispose();
  expect(mountedUnder(scratch)).toEqual([]);
  rmSync(scratch, { recursive: true, force: true });
});

/** Every kind of change a rollout makes, through the checkout's root like an agent would. */
function editEverything(root: string): void {
  const at = (p: string) => join(root, p);
  writeFileSync(at("src/app.py"), "print('changed')\n"); // modified
  mkdirSync(at("new"));
  writeFileSync(at("new/file.txt"), "fresh\n"); // added, in a new directory
  rmSync(at("docs"), { recursive: true }); // a whole lower directory: whiteout
  rmSync(at("src/pkg"), { recursive: true }); // `rm -r dir && mkdir dir`: an opaque directory
  mkdirSync(at("src/pkg"));
  writeFileSync(at("src/pkg/c.py"), "C = 3\n");
  writeFileSync(at("README.md"), FIXTURE_FILES["README.md"] ?? ""); // rewritten, same bytes: unchanged
  utimesSync(at("README.md"), new Date(0), new Date(0));
  chmodSync(at("src/util.py"), 0o755); // mode change only: modified
  unlinkSync(at("scripts/run.sh")); // a file replaced by a directory
  mkdirSync(at("scripts/run.sh"));
  writeFileSync(at("scripts/run.sh/inner"), "x\n");
  unlinkSync(at("link")); // a symlink pointed elsewhere
  symlinkSync("src/util.py", at("link"));
  // A lower directory renamed: with redirect_dir=off rename(2) says EXDEV and mv copies instead.
  execFileSync("mv", [at("lib"), at("lib2")]);
}

const EXPECTED = {
  added: ["lib2/core.py", "lib2/extra/more.py", "new/file.txt", "scripts/run.sh/inner", "src/pkg/c.py"],
  modified: ["link", "src/app.py", "src/util.py"],
  deleted: [
    "docs/guide.md",
    "lib/core.py",
    "lib/extra/more.py",
    "scripts/run.sh",
    "src/pkg/a.py",
    "src/pkg/b.py",
  ],
  uncarried: [],
};

describe.each([
  { mode: "auto" as const, kind: "overlay", skip: !canOverlay },
  { mode: "copy" as const, kind: "copy", skip: false },
])("diff of a $kind checkout", ({ mode, kind, skip }) => {
  async function checkout(): Promise<Checkout> {
    if (mode === "auto") return snapshot.checkout();
    // The same snapshot directory, used in place, with every checkout a copy.
    const copies = await prepareSnapshot(snapshot.dir, { prepared: true, mode, scratchDir: scratch });
    copySnapshots.push(copies);
    return copies.checkout();
  }

  needing("overlayfs", skip && "overlayfs cannot be mounted here").it(
    "is empty for an untouched checkout, and lists every kind of change",
    async () => {
      const c = await checkout();
      expect(c.kind).toBe(kind);
      expect(await c.diff()).toEqual({ added: [], modified: [], deleted: [], uncarried: [] });
      editEverything(c.root);
      expect(await c.diff()).toEqual(EXPECTED);
      expect(treeFingerprint(snapshot.dir)).toBe(pristine);
      await c.dispose();
    },
  );

  needing("overlayfs", skip && "overlayfs cannot be mounted here").it(
    "gitDiff is the same change as a patch, and writes nothing into the checkout",
    async () => {
      const c = await checkout();
      editEverything(c.root);
      const before = await c.diff();
      const patch = await c.gitDiff();
      expect(patch).toContain("diff --git a/src/app.py b/src/app.py");
      expect(patch).toContain("+print('changed')");
      expect(patch).toMatch(/deleted file mode 100644\nindex [0-9a-f]+\.\.0+\n--- a\/docs\/guide\.md/);
      expect(patch).toContain("old mode 100644\nnew mode 100755");
      expect(patch).toContain("lib2/core.py");
      expect(await c.diff()).toEqual(before);
      if (c.layers) expect(readdirSync(c.layers.upper)).not.toContain(".git");
      await c.dispose();
    },
  );
});

/** What an agent can make that no git patch carries: FIFOs, a socket, trees too deep for git. */
function makeUncarriable(root: string): void {
  rmSync(join(root, "src/util.py"));
  execFileSync("mkfifo", [join(root, "src/util.py"), join(root, "new.fifo")]); // a tracked file, and a new one
  execFileSync("python3", [
    "-c",
    "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])",
    join(root, "sock"),
  ]);
  makeDeepTree(root, "deep", 80); // 80 levels of 61 bytes: a path over PATH_MAX
  makeDeepTree(root, "nested", MAX_PATCH_DEPTH + 10, "n"); // short names, too many levels
}

describe.each([
  { mode: "auto" as const, skip: !canOverlay },
  { mode: "copy" as const, skip: false },
])("what a patch cannot carry ($mode)", ({ mode, skip }) => {
  needing("overlayfs", skip && "overlayfs cannot be mounted here").it(
    "is listed apart, left out of the patch, and removed with the checkout",
    async () => {
      const c =
        mode === "auto"
          ? await snapshot.checkout()
          : await prepareSnapshot(snapshot.dir, { prepared: true, mode, scratchDir: scratch }).then((s) => {
              copySnapshots.push(s);
              return s.checkout();
            });
      writeFileSync(join(c.root, "src/app.py"), "print('changed')\n");
      makeUncarriable(c.root);
      const d = await c.diff();
      expect({ added: d.added, modified: d.modified, deleted: d.deleted }).toEqual({
        added: [],
        modified: ["src/app.py"],
        deleted: [],
      });
      const [deep, nested, fifo, sock, util] = d.uncarried;
      expect(d.uncarried).toHaveLength(5);
      expect(deep && describeUncarried(deep)).toMatch(
        /^too deep for a patch: deep\/d{60}\/.{50,}… \(a path over 4095 bytes\)$/,
      );
      expect(Buffer.byteLength(deep?.path ?? "")).toBeGreaterThan(4095);
      expect(nested).toMatchObject({
        why: "too deep for a patch",
        detail: `nested over ${MAX_PATCH_DEPTH} levels`,
      });
      expect(nested?.path.split("/")).toHaveLength(MAX_PATCH_DEPTH + 1);
      expect([fifo, sock, util].map((u) => u && describeUncarried(u))).toEqual([
        "not a regular file: new.fifo (a FIFO)",
        "not a regular file: sock (a socket)",
        "not a regular file: src/util.py (a FIFO)",
      ]);
      const patch = await c.patch();
      expect(patch.uncarried).toEqual(d.uncarried);
      expect(patch.diff).toContain("+print('changed')");
      expect(patch.diff).not.toMatch(/util\.py|new\.fifo|sock|deep|nested/);
      await c.dispose();
      expect(existsSync(c.root)).toBe(false);
    },
  );
});

needing("overlayfs", !canOverlay && "overlayfs cannot be mounted here").describe("overlay specifics", () => {
  it("records deletions as whiteouts and keeps git's own writes in the upper layer", async () => {
    const c = await snapshot.checkout();
    const upper = c.layers?.upper ?? "";
    rmSync(join(c.root, "docs/guide.md"));
    const whiteout = lstatSync(join(upper, "docs/guide.md"));
    expect(whiteout.isCharacterDevice() && whiteout.rdev === 0).toBe(true);
    // rename(2) of a lower directory is refused (redirect_dir=off); tools fall back to copying.
    expect(() => renameSync(join(c.root, "lib"), join(c.root, "lib3"))).toThrow(/EXDEV/);

    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: c.root,
        encoding: "utf8",
      });
    git("add", "-A");
    git("commit", "-qm", "agent commit");
    expect(readdirSync(join(upper, ".git"))).toContain("index");
    expect(git("log", "--format=%s")).toBe("agent commit\nacilab snapshot: base\n");
    expect(await c.diff()).toEqual({ added: [], modified: [], deleted: ["docs/guide.md"], uncarried: [] });
    expect(await c.gitDiff()).toContain("deleted file mode 100644");
    expect(treeFingerprint(snapshot.dir)).toBe(pristine);
    expect(readFileSync(join(snapshot.dir, "docs/guide.md"), "utf8")).toBe("Read the code.\n");
    await c.dispose();
  });
});
