import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** npm's `${VAR}` syntax, spelt so that no reader takes it for a template placeholder. */
const VAR = (name: string) => `$${"{"}${name}}`;

import { machineNpmSources, NPM_REGISTRY, parseNpmrc, sandboxNpm } from "./npm-sources.js";

const root = mkdtempSync(join(tmpdir(), "acilab-npmrc-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the machine's npm registries", () => {
  it("reads global then user npmrc, then npm_config_* variables; a project's .npmrc is never read", () => {
    const prefix = join(root, "usr");
    mkdirSync(join(prefix, "etc"), { recursive: true });
    writeFileSync(
      join(prefix, "etc", "npmrc"),
      "cafile=/etc/ssl/certs/ca-certificates.crt\nregistry=https://global.example/\n",
    );
    const home = join(root, "home");
    mkdirSync(home);
    writeFileSync(
      join(home, ".npmrc"),
      `; user config\n@acme:registry=https://npm.acme.example/\n//npm.acme.example/:_authToken=${VAR("ACME_TOKEN")}\n`,
    );
    const sources = machineNpmSources({ ACME_TOKEN: "s3cret" }, home, prefix);
    expect(sources).toEqual({
      registry: "https://global.example/",
      scopes: { "@acme": "https://npm.acme.example/" },
      origin: [join(prefix, "etc", "npmrc"), join(home, ".npmrc")],
    });
    const over = machineNpmSources({ npm_config_registry: "https://mirror.example/npm/" }, home, prefix);
    expect(over.registry).toBe("https://mirror.example/npm/");
    expect(over.origin.at(-1)).toBe("npm_config_registry");
  });

  it("defaults to npm's registry when no config names one", () => {
    expect(machineNpmSources({}, join(root, "nobody"), join(root, "nothing")).registry).toBe(NPM_REGISTRY);
  });

  it("parses ini lines with comments, quotes and npm's variable references", () => {
    const v = parseNpmrc(`# c\nregistry = "https://r.example/"\nx=${VAR("HOME")}/y\n`, { HOME: "/h" });
    expect(Object.fromEntries(v)).toEqual({ registry: "https://r.example/", x: "/h/y" });
  });
});

describe("npm inside a build sandbox", () => {
  it("gets an npmrc naming only the registries, the proxy open to their hosts, no token", () => {
    const s = sandboxNpm({
      registry: "https://registry.npmjs.org/",
      scopes: { "@acme": "https://npm.acme.example:8443/" },
      origin: ["/home/u/.npmrc"],
    });
    expect(s.hosts).toEqual(["npm.acme.example:8443", "registry.npmjs.org"]);
    expect(s.config).toContain("registry=https://registry.npmjs.org/\n");
    expect(s.config).toContain("@acme:registry=https://npm.acme.example:8443/\n");
    expect(s.config).not.toMatch(/_auth|token/i);
    expect(s.env.NPM_CONFIG_USERCONFIG).toBe("/opt/acilab-sources/npmrc");
    expect(s.summary).toBe(
      "https://registry.npmjs.org/, https://npm.acme.example:8443/ (@acme) — from /home/u/.npmrc",
    );
  });

  it("'none' is npm's offline mode, with no host open", () => {
    const s = sandboxNpm("none");
    expect(s.hosts).toEqual([]);
    expect(s.config).toContain("offline=true");
  });

  it("refuses a registry URL that carries credentials", () => {
    expect(() => sandboxNpm({ registry: "https://u:p@r.example/", origin: [] })).toThrow(
      /carries credentials/,
    );
  });
});
