/**
 * `acilab sandbox exec --workspace DIR` on a user's own directory, with acilab running as root (as
 * here): DIR is readable and writable inside whatever its mode, what the program creates belongs to
 * DIR's owner afterwards, files already there keep their owner and mode — and the program is still
 * the unprivileged sandbox uid everywhere else.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";
import { probeBwrap } from "../../src/sandbox/index.js";
import { needing, needingAll, notRoot, unless } from "../../src/testing/needs.js";

const _asRoot = process.getuid?.() === 0;
const bwrap = await probeBwrap();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function exec(workspace: string, script: string, backend = "bwrap") {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    ["sandbox", "exec", "--backend", backend, "--workspace", workspace, "--", "sh", "-c", script],
    (t) => out.push(t),
    (t) => err.push(t),
  );
  return { code, err: err.join("\n") };
}

needingAll([
  ["root", notRoot],
  ["bwrap", unless(bwrap)],
]).describe("sandbox exec on a user's directory (acilab as root)", () => {
  for (const mode of [0o700, 0o755]) {
    it(`a root-owned ${mode.toString(8)} directory is readable and writable; new files are root's`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "acilab-userdir-")); // root-owned 0700, like mktemp -d
      dirs.push(dir);
      chmodSync(dir, mode);
      writeFileSync(join(dir, "file"), "hello\n", { mode: 0o640 });
      const r = await exec(dir, "cat file > copy && mkdir sub && echo new > sub/new && id -u > uid");
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(readFileSync(join(dir, "copy"), "utf8")).toBe("hello\n");
      expect(readFileSync(join(dir, "uid"), "utf8")).toBe("1000\n"); // still the unprivileged uid inside
      for (const made of ["copy", "sub", "sub/new", "uid"]) {
        const st = statSync(join(dir, made));
        expect([made, st.uid, st.gid]).toEqual([made, 0, 0]);
      }
      const before = statSync(join(dir, "file"));
      expect([before.uid, before.gid, before.mode & 0o7777]).toEqual([0, 0, 0o640]);
      expect(statSync(dir).mode & 0o7777).toBe(mode);
    });
  }

  it("a directory of another user: new files are that user's; files of others stay out of reach", async () => {
    const dir = mkdtempSync(join(tmpdir(), "acilab-userdir-"));
    dirs.push(dir);
    chownSync(dir, 4242, 4343);
    writeFileSync(join(dir, "mine"), "mine\n", { mode: 0o600 });
    chownSync(join(dir, "mine"), 4242, 4343);
    writeFileSync(join(dir, "roots"), "secret\n", { mode: 0o600 }); // root's, not the owner's
    const r = await exec(dir, "cat mine > copy; cat roots > leaked; echo $? > status");
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "copy"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(dir, "leaked"), "utf8")).toBe("");
    expect(readFileSync(join(dir, "status"), "utf8")).not.toBe("0\n");
    const st = statSync(join(dir, "copy"));
    expect([st.uid, st.gid]).toEqual([4242, 4343]);
  });

  needing(
    "runsc",
    !["/usr/bin/runsc", "/usr/local/bin/runsc"].some((p) => existsSync(p)) && "runsc is not installed",
  ).it("runsc cannot map the owner and says so, before running anything", async () => {
    const dir = mkdtempSync(join(tmpdir(), "acilab-userdir-"));
    dirs.push(dir);
    const r = await exec(dir, "touch made", "runsc");
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(
      /the runsc backend cannot show .* to the sandbox user \(uid 61000\) as its own: .* Use the bwrap backend \(the default\)/,
    );
    expect(statSync(dir).uid).toBe(0); // not handed over either
  });
});
