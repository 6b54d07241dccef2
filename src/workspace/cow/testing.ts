/** Fixtures for the copy-on-write tests: small real repositories, tree fingerprints, mount probes. */
import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { mountsUnder } from "./mountinfo.js";
import { prepareSnapshot } from "./snapshot.js";

export const FIXTURE_FILES: Record<string, string> = {
  "README.md": "# demo\n",
  "src/app.py": "from util import double\n\nprint(double(2))\n",
  "src/util.py": "def double(x):\n    return 2 * x\n",
  "src/pkg/a.py": "A = 1\n",
  "src/pkg/b.py": "B = 2\n",
  "docs/guide.md": "Read the code.\n",
  "lib/core.py": "CORE = True\n",
  "lib/extra/more.py": "MORE = True\n",
  "scripts/run.sh": "#!/bin/sh\npython3 src/app.py\n",
};

/** A directory holding FIXTURE_FILES (plus an executable bit and a symlink), not yet a git repo. */
export function makeSourceTree(parent: string): string {
  const dir = mkdtempSync(join(parent, "source-"));
  for (const [path, text] of Object.entries(FIXTURE_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  chmodSync(join(dir, "scripts/run.sh"), 0o755);
  symlinkSync("src/app.py", join(dir, "link"));
  return dir;
}

/** A real-path scratch directory for one test file. */
export function makeScratch(name: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `acilab-cowtest-${name}-`)));
}

/** Path, type, mode and content of everything under `dir` (`.git` included), as one hash. */
export function treeFingerprint(dir: string): string {
  const hash = createHash("sha256");
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel === "" ? name : `${rel}/${name}`;
      const full = join(dir, path);
      const stat = lstatSync(full);
      hash.update(`${path}\0${stat.mode}\0`);
      if (stat.isDirectory()) walk(path);
      else if (stat.isSymbolicLink()) hash.update(readlinkSync(full));
      else hash.update(readFileSync(full));
    }
  };
  walk("");
  return hash.digest("hex");
}

/** Whether this machine can mount overlays (root, kernel support): decides which tests run. */
export async function overlayWorksHere(): Promise<boolean> {
  const scratch = makeScratch("probe");
  try {
    const snapshot = await prepareSnapshot(makeSourceTree(scratch), { scratchDir: scratch });
    const checkout = await snapshot.checkout();
    const works = checkout.kind === "overlay";
    await snapshot.dispose();
    return works;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Mount points at or below `dir` (deepest first): what a test must leave empty. */
export function mountedUnder(dir: string): string[] {
  return mountsUnder(dir).map((m) => m.target);
}
