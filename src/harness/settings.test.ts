import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { permissionRules } from "./permission-rules.js";
import { RuleSyntaxError } from "./rules.js";
import { loadSettings, mergeSettings, parseSettings, untrustedNotice } from "./settings.js";
import { SettingsError } from "./settings-schema.js";

let dir: string;
let repo: string;
let configDir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-settings-"));
  repo = join(dir, "repo");
  configDir = join(dir, "config");
  mkdirSync(join(repo, ".acilab"), { recursive: true });
  mkdirSync(configDir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const put = (file: string, value: unknown) =>
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
const userFile = () => join(configDir, "settings.json");
const projectFile = () => join(repo, ".acilab", "settings.json");
const localFile = () => join(repo, ".acilab", "settings.local.json");

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("did not throw");
}

const hook = (command: string, matcher?: string) => [
  { ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command }] },
];

describe("parseSettings: bad files say where and what to do", () => {
  it("malformed JSON: a trailing comma, with the file's line and column", () => {
    const e = errorOf(() =>
      parseSettings('{\n  "permissions": {"allow": ["Bash"],}\n}', "/r/s.json", "project"),
    );
    expect(e).toBeInstanceOf(SettingsError);
    expect(e.message).toMatch(/^\/r\/s\.json:2:37: not valid JSON/);
    expect(e.message).toContain("line 2, column 37");
  });

  it("malformed JSON: a truncated file, at its end", () => {
    const e = errorOf(() => parseSettings('{\n  "permissions": {\n    "deny": ["Ba', "/r/s.json", "project"));
    expect(e.message).toMatch(/^\/r\/s\.json:3:17: not valid JSON/);
  });

  it("an unknown key inside permissions names the key, its path and what the place takes", () => {
    const e = errorOf(() =>
      parseSettings(JSON.stringify({ permissions: { alow: ["Bash"] } }), "/r/s.json", "user"),
    );
    expect(e).toBeInstanceOf(SettingsError);
    expect(e.message).toContain('/r/s.json: permissions: unknown key "alow"');
    expect(e.message).toContain("allow, ask and deny");
  });

  it("a wrong type names the JSON path", () => {
    const e = errorOf(() =>
      parseSettings(JSON.stringify({ permissions: { deny: ["Bash(rm:*)", 3] } }), "/r/s.json", "user"),
    );
    expect(e.message).toMatch(/permissions\.deny\[1\]: .*expected string/);
  });

  it("an unknown mode, hook event, hook key or hook type is an error", () => {
    const bad = [
      [{ permissions: { defaultMode: "yolo" } }, /permissions\.defaultMode: .*acceptEdits/],
      [
        { hooks: { Notification: hook("x") } },
        /hooks: unknown key "Notification" — "hooks" is keyed by event: PreToolUse/,
      ],
      [{ hooks: { Stop: [{ matcher: "", hooks: [], extra: 1 }] } }, /hooks\.Stop\[0\]: unknown key "extra"/],
      [
        { hooks: { Stop: [{ hooks: [{ type: "prompt", command: "x" }] }] } },
        /hooks\.Stop\[0\]\.hooks\[0\]\.type/,
      ],
      [{ hooks: { Stop: [{ hooks: [{ type: "command", command: "x", timeout: 0 }] }] } }, /timeout/],
    ] as const;
    for (const [value, message] of bad)
      expect(errorOf(() => parseSettings(JSON.stringify(value), "/r/s.json", "user")).message).toMatch(
        message,
      );
  });

  it("a matcher that is not a regular expression is an error at load time", () => {
    const e = errorOf(() =>
      parseSettings(JSON.stringify({ hooks: { PreToolUse: hook("x", "Bash(") } }), "/r/s.json", "user"),
    );
    expect(e.message).toMatch(/hooks\.PreToolUse\[0\]\.matcher: "Bash\(" is not a valid regular expression/);
  });

  it("a rule with bad syntax is a RuleSyntaxError naming the file", () => {
    const e = errorOf(() =>
      parseSettings(JSON.stringify({ permissions: { allow: ["Bash(npm"] } }), "/r/s.json", "user"),
    );
    expect(e).toBeInstanceOf(RuleSyntaxError);
    expect(e.message).toContain("/r/s.json");
  });

  it("a file that is not an object is an error; Claude Code's other top-level keys are ignored", () => {
    expect(errorOf(() => parseSettings("[]", "/r/s.json", "user")).message).toMatch(/JSON object/);
    const part = parseSettings(
      JSON.stringify({ env: { A: "1" }, model: "opus", statusLine: {} }),
      "/r/s.json",
      "user",
    );
    expect(part.rules).toEqual([]);
  });
});

describe("Claude Code's other permission keys", () => {
  it("accepts additionalDirectories (unused) and honours disableBypassPermissionsMode from any file", () => {
    const part = parseSettings(
      JSON.stringify({
        permissions: { additionalDirectories: ["../docs"], disableBypassPermissionsMode: "disable" },
      }),
      "/r/.acilab/settings.json",
      "project",
    );
    expect(part.disableBypass).toBe(true);
    // An untrusted repository may forbid bypassPermissions: it only makes things stricter.
    expect(mergeSettings("/r", [part], false).disableBypass).toBe(true);
    expect(
      errorOf(() =>
        parseSettings(
          JSON.stringify({ permissions: { disableBypassPermissionsMode: "on" } }),
          "/r/s.json",
          "user",
        ),
      ).message,
    ).toMatch(/disableBypassPermissionsMode/);
  });
});

describe("loadSettings", () => {
  it("reads user, project, local and --settings files in order; lists concatenate, the last mode wins", async () => {
    put(userFile(), {
      permissions: { allow: ["Bash(ls)"], defaultMode: "acceptEdits" },
      hooks: { Stop: hook("u") },
    });
    put(projectFile(), { permissions: { deny: ["Bash(rm:*)"] }, hooks: { Stop: hook("p") } });
    put(localFile(), { permissions: { ask: ["Bash(git push:*)"], defaultMode: "plan" } });
    const flag = join(dir, "extra.json");
    put(flag, { permissions: { allow: ["Edit(src/**)"] } });
    const s = await loadSettings({ repo, configDir, settingsFiles: [flag], trusted: true });
    expect(s.files).toEqual([userFile(), projectFile(), localFile(), flag]);
    expect(s.rules.map((r) => [r.behavior, r.text, r.scope])).toEqual([
      ["allow", "Bash(ls)", "user"],
      ["deny", "Bash(rm:*)", "project"],
      ["ask", "Bash(git push:*)", "local"],
      ["allow", "Edit(src/**)", "flag"],
    ]);
    expect(s.rules[1]?.source).toBe(projectFile());
    expect(s.defaultMode).toBe("plan");
    expect(s.hooks.map((h) => [h.command, h.scope, h.timeoutMs])).toEqual([
      ["u", "user", 60_000],
      ["p", "project", 60_000],
    ]);
    expect(s.untrusted).toBeUndefined();
  });

  it("is fine with no files at all, but not with a missing --settings file", async () => {
    const s = await loadSettings({ repo, configDir, trusted: false });
    expect(s).toEqual({ repo, rules: [], hooks: [], files: [] });
    await expect(
      loadSettings({ repo, configDir, settingsFiles: [join(dir, "nope.json")], trusted: true }),
    ).rejects.toThrow(/nope\.json: not found — check the path given to --settings/);
  });

  it("an untrusted repository's hooks and allow rules are skipped and reported; its deny and ask rules apply", async () => {
    put(userFile(), { permissions: { allow: ["Bash(ls)"] }, hooks: { Stop: hook("mine") } });
    put(projectFile(), {
      permissions: { allow: ["Bash", "Edit"], deny: ["Bash(rm:*)"], defaultMode: "bypassPermissions" },
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: "command", command: "a" },
              { type: "command", command: "b" },
            ],
          },
        ],
      },
    });
    put(localFile(), { permissions: { ask: ["Bash(git push:*)"] }, hooks: { Stop: hook("c") } });
    const s = await loadSettings({ repo, configDir, trusted: false });
    expect(s.hooks.map((h) => h.command)).toEqual(["mine"]);
    expect(s.rules.map((r) => r.text)).toEqual(["Bash(ls)", "Bash(rm:*)", "Bash(git push:*)"]);
    expect(s.defaultMode).toBeUndefined();
    expect(s.untrusted).toEqual({
      hooks: 3,
      allows: 2,
      defaultMode: "bypassPermissions",
      files: [projectFile(), localFile()],
    });
    expect(untrustedNotice(s)).toBe(
      "this repository's .acilab/settings.json and .acilab/settings.local.json define 3 hooks, 2 allow rules and defaultMode bypassPermissions; they were not used because the repository is not trusted — run `acilab agent trust` in it to allow them",
    );
    const rules = permissionRules(s);
    expect(rules("shell", "execute", { command: "rm -rf x" }).behavior).toBe("deny");
    expect(rules("shell", "execute", { command: "make" }).behavior).toBe("ask");

    const trusted = await loadSettings({ repo, configDir, trusted: true });
    expect(untrustedNotice(trusted)).toBeUndefined();
    expect(trusted.hooks).toHaveLength(4);
    expect(trusted.defaultMode).toBe("bypassPermissions");
    expect(permissionRules(trusted)("shell", "execute", { command: "make" }).behavior).toBe("allow");
  });

  it("an untrusted repository may still choose plan mode, which only makes things stricter", async () => {
    put(projectFile(), { permissions: { defaultMode: "plan" } });
    const s = await loadSettings({ repo, configDir, trusted: false });
    expect(s.defaultMode).toBe("plan");
    expect(s.untrusted).toBeUndefined();
  });

  it("a bad file stops loading with the file named", async () => {
    put(localFile(), "{ nope");
    await expect(loadSettings({ repo, configDir, trusted: true })).rejects.toThrow(
      `${localFile()}:1:3: not valid JSON`,
    );
  });

  it("permissionRules takes the session's mode over the file's, and the rules' reasons name their files", async () => {
    put(projectFile(), { permissions: { deny: ["Read(./.env)"], defaultMode: "acceptEdits" } });
    const s = await loadSettings({ repo, configDir, trusted: true });
    expect(permissionRules(s)("str_replace", "edit", { path: "a.ts" }).behavior).toBe("allow");
    expect(permissionRules(s, "default")("str_replace", "edit", { path: "a.ts" }).behavior).toBe("ask");
    expect(permissionRules(s)("view", "read", { path: ".env" })).toEqual({
      behavior: "deny",
      reason: `deny rule Read(./.env) in ${projectFile()}`,
    });
  });
});
