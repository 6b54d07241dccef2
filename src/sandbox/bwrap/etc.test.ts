import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { needing, notRoot } from "../../testing/needs.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
// Files share a process (vitest's isolate: false): the last fresh module, whose cached copy lived in a
// folder removed above, must not be the one the next file's sandboxes import.
afterAll(() => vi.resetModules());

/** A fresh module each time: prepareEtc caches its result per process. */
async function freshPrepare() {
  vi.resetModules();
  return (await import("./etc.js")).prepareEtc;
}

describe("prepareEtc", () => {
  it("copies only what everyone may read, keeps symlinks as links, and adds our passwd and group", async () => {
    const host = mkdtempSync(join(tmpdir(), "acilab-hostetc-"));
    const out = mkdtempSync(join(tmpdir(), "acilab-etcout-"));
    dirs.push(host, out);
    mkdirSync(join(host, "ssl/certs"), { recursive: true });
    mkdirSync(join(host, "ssl/private"));
    chmodSync(join(host, "ssl/private"), 0o710);
    writeFileSync(join(host, "ssl/private/key.pem"), "PRIVATE");
    writeFileSync(join(host, "ssl/certs/ca.pem"), "CERT");
    writeFileSync(join(host, "ssl/root-only.cnf"), "x", { mode: 0o600 });
    symlinkSync("/usr/share/ca/x.crt", join(host, "ssl/certs/x.pem"));
    writeFileSync(join(host, "hosts"), "127.0.0.1 localhost\n");
    const prepare = await freshPrepare();
    const etc = prepare([join(host, "ssl"), join(host, "hosts")], out);
    expect(readFileSync(join(etc, "hosts"), "utf8")).toBe("127.0.0.1 localhost\n");
    expect(readFileSync(join(etc, "ssl/certs/ca.pem"), "utf8")).toBe("CERT");
    expect(readlinkSync(join(etc, "ssl/certs/x.pem"))).toBe("/usr/share/ca/x.crt");
    expect(existsSync(join(etc, "ssl/private"))).toBe(false);
    expect(existsSync(join(etc, "ssl/root-only.cnf"))).toBe(false);
    expect(readFileSync(join(etc, "passwd"), "utf8")).toMatch(/^sandbox:x:1000:/m);
    expect(lstatSync(etc).mode & 0o777).toBe(0o755);
  });

  it("is content-addressed: the same /etc reuses the copy, a changed one gets a new copy", async () => {
    const host = mkdtempSync(join(tmpdir(), "acilab-hostetc-"));
    const out = mkdtempSync(join(tmpdir(), "acilab-etcout-"));
    dirs.push(host, out);
    writeFileSync(join(host, "hosts"), "a\n");
    const first = (await freshPrepare())([join(host, "hosts")], out);
    expect((await freshPrepare())([join(host, "hosts")], out)).toBe(first);
    writeFileSync(join(host, "hosts"), "changed\n");
    const third = (await freshPrepare())([join(host, "hosts")], out);
    expect(third).not.toBe(first);
    expect(readFileSync(join(third, "hosts"), "utf8")).toBe("changed\n");
  });

  it("makes its copy again when the cached one was removed under the process", async () => {
    const host = mkdtempSync(join(tmpdir(), "acilab-hostetc-"));
    const out = mkdtempSync(join(tmpdir(), "acilab-etcout-"));
    dirs.push(host, out);
    writeFileSync(join(host, "hosts"), "a\n");
    const prepare = await freshPrepare();
    const first = prepare([join(host, "hosts")], out);
    rmSync(first, { recursive: true, force: true });
    expect(prepare([join(host, "hosts")], out)).toBe(first);
    expect(readFileSync(join(first, "hosts"), "utf8")).toBe("a\n");
  });

  needing("root", notRoot).it("never trusts a directory someone else made under its name", async () => {
    const host = mkdtempSync(join(tmpdir(), "acilab-hostetc-"));
    const first = mkdtempSync(join(tmpdir(), "acilab-etcout-"));
    const second = mkdtempSync(join(tmpdir(), "acilab-etcout-"));
    dirs.push(host, first, second);
    writeFileSync(join(host, "hosts"), "a\n");
    const name = basename((await freshPrepare())([join(host, "hosts")], first));
    const squat = join(second, name);
    mkdirSync(squat);
    writeFileSync(join(squat, "hosts"), "attacker\n");
    chownSync(squat, 1000, 1000);
    const got = (await freshPrepare())([join(host, "hosts")], second);
    expect(got).not.toBe(squat);
    expect(readFileSync(join(got, "hosts"), "utf8")).toBe("a\n");
  });
});
