import { spawn } from "node:child_process";
import { readlinkSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { needing, unless } from "../../testing/needs.js";
import { probeBwrap } from "../bwrap/detect.js";
import { buildBoxArgs } from "./argv.js";
import { ProgramBox } from "./box.js";
import { shellQuote, wrapperScript } from "./wrapper.js";

const bwrap = await probeBwrap();

describe("the box's wrapper and command line", () => {
  it("quotes every word so sh reads it back unchanged", async () => {
    const words = ["plain", "it's", 'a "b" $HOME `x` \\ ;|&', ""];
    const script = `printf '%s\\n' ${words.map(shellQuote).join(" ")}`;
    const out = await new Promise<string>((resolve) => {
      const c = spawn("/bin/sh", ["-c", script]);
      let text = "";
      c.stdout.on("data", (d: Buffer) => {
        text += d.toString();
      });
      c.on("close", () => resolve(text));
    });
    expect(out).toBe(`${words.join("\n")}\n`);
  });

  it("keeps user namespaces off unless the program sandboxes itself", () => {
    const spec = {
      layout: { symlinks: [], dirs: ["/usr"], etc: [] },
      etcDir: "/tmp/etc",
      readOnly: [],
      writable: [],
      env: {},
      argv: ["/usr/bin/true"],
    };
    expect(buildBoxArgs({ ...spec, nestedSandbox: false })).toContain("--disable-userns");
    expect(buildBoxArgs({ ...spec, nestedSandbox: true })).not.toContain("--disable-userns");
    const script = wrapperScript({
      seccompFile: "/f",
      join: [],
      drop: [],
      bwrap: ["bwrap"],
      replaceArgs: {},
    });
    expect(script).toContain("ulimit -c 0");
  });
});

needing("bwrap", unless(bwrap)).describe("a program in a box", () => {
  it("runs unprivileged in its own network namespace, read-only system, private home, arguments rewritten, fd 3 kept", async () => {
    const box = ProgramBox.open({
      program: "/bin/sh",
      proxy: true,
      replaceArgs: { "--secret-path=": "--secret-path=/tmp/inside" },
    });
    try {
      const script = [
        "echo uid=$(id -u) home=$HOME arg=$1",
        "touch /usr/x 2>/dev/null && echo usr-writable || echo usr-ro",
        "readlink /proc/self/ns/net",
        "echo via-fd3 >&3",
      ].join("; ");
      const child = spawn(box.executable, ["-c", script, "sh", "--secret-path=/host/profile"], {
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      });
      let out = "";
      let fd3 = "";
      child.stdout?.on("data", (d: Buffer) => {
        out += d.toString();
      });
      child.stdio[3]?.on("data", (d: Buffer) => {
        fd3 += d.toString();
      });
      await new Promise((r) => child.on("close", r));
      expect(out).toContain("uid=1000 home=/tmp/home arg=--secret-path=/tmp/inside");
      expect(out).toContain("usr-ro");
      expect(out).toMatch(/net:\[\d+\]/);
      expect(out).not.toContain(readlinkSync("/proc/self/ns/net"));
      expect(fd3).toBe("via-fd3\n");
    } finally {
      await box.close();
    }
  });
});
