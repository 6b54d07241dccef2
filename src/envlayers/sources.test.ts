import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { answeringSources, probeIndex } from "./probe.js";
import { machinePipSources, parsePipConfig, sandboxPip, specSources } from "./sources.js";

const dir = mkdtempSync(join(tmpdir(), "acilab-pipconf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the machine's pip configuration", () => {
  it("reads pip's files in pip's order, continuation lines included, and PIP_* variables last", () => {
    const site = join(dir, "xdg", "pip");
    mkdirSync(site, { recursive: true });
    writeFileSync(
      join(site, "pip.conf"),
      "[global]\nconstraint = /c.txt\nindex-url = https://site.example/simple\n",
    );
    const home = join(dir, "home");
    mkdirSync(join(home, ".config", "pip"), { recursive: true });
    writeFileSync(
      join(home, ".config", "pip", "pip.conf"),
      "# mine\n[global]\nextra-index-url =\n    file:///opt/a/simple\n    file:///opt/b/simple\n[install]\nfind-links = /wheels\n",
    );
    const s = machinePipSources(
      { XDG_CONFIG_DIRS: join(dir, "xdg"), PIP_INDEX_URL: "https://env.example/simple" },
      home,
    );
    expect(s.indexUrl).toBe("https://env.example/simple");
    expect(s.extraIndexUrls).toEqual(["file:///opt/a/simple", "file:///opt/b/simple"]);
    expect(s.findLinks).toEqual(["/wheels"]);
    expect(s.constraints).toEqual(["/c.txt"]);
    expect(s.origin.at(-1)).toBe("$PIP_INDEX_URL");
    expect(parsePipConfig("[global]\nno_index = yes\n").get("global")?.get("no-index")).toBe("yes");
  });

  it("shows folder indexes with their files, lets http(s) index hosts through, copies constraints", () => {
    const index = join(dir, "mirror", "simple");
    mkdirSync(index, { recursive: true });
    const constraints = join(dir, "constraints.txt");
    writeFileSync(constraints, "torch<=2\n");
    const pip = sandboxPip({
      indexUrl: undefined,
      extraIndexUrls: [`file://${index}`, "https://pkgs.example:8443/simple"],
      findLinks: [],
      constraints: [constraints],
      noIndex: false,
      origin: ["test"],
    });
    expect(pip.paths).toEqual([join(dir, "mirror")]);
    expect(pip.hosts).toEqual(["files.pythonhosted.org", "pkgs.example:8443", "pypi.org"]);
    expect(pip.config).toContain("index-url = https://pypi.org/simple");
    expect(pip.config).toContain("constraint = /opt/acilab-sources/constraints-1.txt");
    expect(Object.values(pip.files)).toEqual(["torch<=2\n"]);
  });

  it("refuses an index URL with credentials: no secret goes into a sandbox", () => {
    const sources = {
      ...specSources("none"),
      noIndex: false,
      indexUrl: "https://user:token@pkgs.example/simple",
    };
    expect(() => sandboxPip(sources)).toThrow(/carries credentials in its URL; acilab passes no secrets/);
  });

  it('"none" means no index at all', () => {
    const pip = sandboxPip(specSources("none"));
    expect(pip.config).toContain("no-index = true");
    expect(pip.hosts).toEqual([]);
  });
});

describe("package indexes that do not answer", () => {
  it("are left out of the build's sources, the first answering extra index taking the main one's place", async () => {
    const silent = new Set(["https://pypi.org/simple", "https://down.example/simple"]);
    const probe = async (url: string) => (silent.has(url) ? "ENOTFOUND" : undefined);
    const { sources, left } = await answeringSources(
      {
        indexUrl: undefined,
        extraIndexUrls: ["file:///opt/a/simple", "https://down.example/simple", "file:///opt/b/simple"],
        findLinks: ["/wheels"],
        constraints: [],
        noIndex: false,
        origin: [],
      },
      probe,
    );
    expect(sources.indexUrl).toBe("file:///opt/a/simple");
    expect(sources.extraIndexUrls).toEqual(["file:///opt/b/simple"]);
    expect(sources.findLinks).toEqual(["/wheels"]);
    expect(left).toEqual([
      "https://pypi.org/simple (pip's default): ENOTFOUND",
      "https://down.example/simple: ENOTFOUND",
    ]);
    const none = await answeringSources(
      { ...sources, indexUrl: "https://down.example/simple", extraIndexUrls: [] },
      probe,
    );
    expect(none.sources.noIndex).toBe(true);
  });

  it("probes a real loopback index once: an answer of any status counts, a closed port does not", async () => {
    const server = createServer((_, res) => {
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await probeIndex(`http://127.0.0.1:${port}/simple/`)).toBeUndefined();
    } finally {
      await new Promise((done) => server.close(done));
    }
    // The same port, closed now: refused.
    expect(await probeIndex(`http://127.0.0.1:${port}/simple/`)).toBe("ECONNREFUSED");
    expect(await probeIndex(`file://${join(dir, "no-such-index")}`)).toMatch(/does not exist$/);
  });
});
