import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROXY_MOUNT, PROXY_PORT, PROXY_URL } from "../net/index.js";
import { buildBwrapArgs, detectRootLayout, identityFiles, type RootLayout } from "./argv.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const layout: RootLayout = {
  dirs: ["/usr"],
  symlinks: [
    { name: "bin", target: "usr/bin" },
    { name: "lib", target: "usr/lib" },
  ],
  etc: ["/etc/ld.so.cache", "/etc/alternatives"],
};

function args(extra: Partial<Parameters<typeof buildBwrapArgs>[0]> = {}): string[] {
  return buildBwrapArgs({
    layout,
    etcDir: "/tmp/acilab-etc-0123",
    seccompFd: 6,
    statusFd: 7,
    workspace: "/tmp/ws",
    readOnly: [],
    cwd: "/workspace",
    env: { PATH: "/usr/bin", HOME: "/tmp" },
    argv: ["python3", "-c", "print(1)"],
    ...extra,
  });
}

/** The values following each occurrence of `flag`. */
function valuesAfter(a: string[], flag: string, count = 1): string[][] {
  const out: string[][] = [];
  a.forEach((x, i) => {
    if (x === flag) out.push(a.slice(i + 1, i + 1 + count));
  });
  return out;
}

describe("buildBwrapArgs", () => {
  it("unshares every namespace, drops to uid 1000 with no capabilities, and forbids nested user namespaces", () => {
    const a = args();
    for (const flag of [
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
      "--clearenv",
    ])
      expect(a).toContain(flag);
    expect(valuesAfter(a, "--uid")).toEqual([["1000"]]);
    expect(valuesAfter(a, "--cap-drop")).toEqual([["ALL"]]);
    expect(a).not.toContain("--share-net");
  });

  it("builds a minimal read-only root: /usr, the curated /etc, merged-usr symlinks, and nothing else", () => {
    const a = args();
    const binds = valuesAfter(a, "--ro-bind", 2).map(([src, dest]) => `${src}->${dest}`);
    expect(binds).toEqual(["/usr->/usr", "/tmp/acilab-etc-0123->/etc"]);
    expect(valuesAfter(a, "--symlink", 2)).toEqual([
      ["usr/bin", "/bin"],
      ["usr/lib", "/lib"],
    ]);
    expect(a.join(" ")).not.toMatch(/--(ro-)?bind \/ /); // never the whole host root
    expect(valuesAfter(a, "--remount-ro")).toEqual([["/"]]);
    // The root goes read-only only after every mount is in place.
    expect(a.indexOf("--remount-ro")).toBeGreaterThan(a.lastIndexOf("--bind"));
  });

  it("mounts the workspace read-write at /workspace, extra paths read-only, and private /proc /dev /tmp", () => {
    const a = args({
      readOnly: [{ source: "/opt/acilab/node_modules/tsx", dest: "/opt/acilab/node_modules/tsx" }],
      cwd: "/workspace/src",
    });
    expect(valuesAfter(a, "--bind", 2)).toEqual([["/tmp/ws", "/workspace"]]);
    expect(valuesAfter(a, "--ro-bind", 2)).toContainEqual([
      "/opt/acilab/node_modules/tsx",
      "/opt/acilab/node_modules/tsx",
    ]);
    expect(valuesAfter(a, "--proc")).toEqual([["/proc"]]);
    expect(valuesAfter(a, "--dev")).toEqual([["/dev"]]);
    expect(valuesAfter(a, "--tmpfs")).toEqual([["/tmp"], ["/dev/shm"]]);
    expect(valuesAfter(a, "--chdir")).toEqual([["/workspace/src"]]);
  });

  it("passes the environment only through --setenv, and the filter by descriptor", () => {
    const a = args();
    expect(valuesAfter(a, "--setenv", 2)).toEqual([
      ["PATH", "/usr/bin"],
      ["HOME", "/tmp"],
    ]);
    expect(valuesAfter(a, "--seccomp")).toEqual([["6"]]);
    expect(valuesAfter(a, "--json-status-fd")).toEqual([["7"]]);
  });

  it("ends with -- and the argv untouched, so nothing in it is read as a bwrap option", () => {
    const a = args({ argv: ["--bind", "/", "/x"] });
    expect(a.slice(-4)).toEqual(["--", "--bind", "/", "/x"]);
  });

  it("with a network proxy: mounts its directory read-only, sets the proxy variables and puts the relay first", () => {
    const a = args({ proxyDir: "/tmp/acilab-net-x", env: { PATH: "/usr/bin", NO_PROXY: "localhost" } });
    expect(valuesAfter(a, "--ro-bind", 2)).toContainEqual(["/tmp/acilab-net-x", PROXY_MOUNT]);
    expect(a.indexOf("--remount-ro")).toBeGreaterThan(a.indexOf(PROXY_MOUNT));
    const env = Object.fromEntries(valuesAfter(a, "--setenv", 2));
    expect(env).toMatchObject({ HTTP_PROXY: PROXY_URL, HTTPS_PROXY: PROXY_URL, http_proxy: PROXY_URL });
    expect(env.NO_PROXY).toBe("localhost"); // the caller's value wins over the default
    const cmd = a.slice(a.indexOf("--") + 1);
    expect(cmd.slice(0, 4)).toEqual(["/usr/bin/python3", "-I", "-S", "-c"]);
    expect(cmd.slice(-5)).toEqual([
      String(PROXY_PORT),
      `${PROXY_MOUNT}/proxy.sock`,
      "python3",
      "-c",
      "print(1)",
    ]);
  });

  it("without one: no proxy mount, no proxy variables, the argv as given", () => {
    const a = args();
    expect(a.join(" ")).not.toContain(PROXY_MOUNT);
    expect(a.join(" ")).not.toMatch(/_PROXY/i);
    expect(a.slice(a.indexOf("--") + 1)).toEqual(["python3", "-c", "print(1)"]);
  });
});

describe("detectRootLayout", () => {
  it("mirrors merged-usr symlinks, binds real directories, and keeps only allowlisted /etc entries", () => {
    const root = mkdtempSync(join(tmpdir(), "acilab-layout-"));
    dirs.push(root);
    mkdirSync(join(root, "usr/bin"), { recursive: true });
    symlinkSync("usr/bin", join(root, "bin"));
    mkdirSync(join(root, "lib64"));
    mkdirSync(join(root, "etc/alternatives"), { recursive: true });
    for (const f of ["ld.so.cache", "shadow", "pip.conf", "npmrc", "gitconfig", "python3.11"])
      writeFileSync(join(root, "etc", f), "");
    const l = detectRootLayout(root);
    expect(l.dirs).toEqual(["/usr", "/lib64"]);
    expect(l.symlinks).toEqual([{ name: "bin", target: "usr/bin" }]);
    expect(l.etc).toEqual(["/etc/alternatives", "/etc/ld.so.cache", "/etc/python3.11"]);
  });
});

describe("identityFiles", () => {
  it("names the sandbox user and has no password hashes", () => {
    const { passwd, group } = identityFiles();
    expect(passwd).toMatch(/^sandbox:x:1000:1000:/m);
    expect(group).toMatch(/^sandbox:x:1000:$/m);
    expect(passwd).not.toMatch(/\$[0-9a-z]+\$/);
  });
});
