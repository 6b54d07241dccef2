import { describe, expect, it } from "vitest";
import { ToolRegistry } from "./registry.js";
import { TOOLSETS, toolset } from "./toolsets.js";

const names = (set: string) => toolset(set).tools.map((t) => t.name);

describe("tool sets", () => {
  it("defines the experiment arms with the tools each one promises", () => {
    expect(names("full")).toEqual(
      expect.arrayContaining([
        "grep",
        "glob",
        "find_file",
        "view",
        "read_file",
        "str_replace",
        "create_file",
        "run_tests",
        "submit",
      ]),
    );
    expect(names("full")).not.toContain("write_file");
    expect(names("whole-file")).toContain("write_file");
    expect(names("whole-file")).not.toContain("str_replace");
    expect(names("no-search")).not.toEqual(expect.arrayContaining(["grep"]));
    expect(
      names("no-search").some((n) => ["grep", "glob", "find_file", "search_dir", "search_file"].includes(n)),
    ).toBe(false);
    expect(names("no-tests")).not.toContain("run_tests");
    expect(names("line-edit")).toEqual(
      expect.arrayContaining(["view", "goto", "scroll", "edit", "search_dir"]),
    );
    expect(names("line-edit")).not.toContain("str_replace");
    expect(names("shell-only")).toEqual(["shell"]);
  });

  it("gives every tool a JSON Schema object the providers accept", () => {
    for (const set of Object.values(TOOLSETS)) {
      for (const spec of new ToolRegistry(set.tools).specs()) {
        expect(spec.inputSchema.type).toBe("object");
        expect(spec.inputSchema).not.toHaveProperty("$schema");
        expect(spec.description.length).toBeGreaterThan(20);
        expect(spec.name).toMatch(/^[a-z_]{1,64}$/);
      }
    }
  });

  it("names the known sets when asked for an unknown one", () => {
    expect(() => toolset("everything")).toThrow(
      /no tool set "everything" \(the tool sets are full, whole-file/,
    );
    expect(() => toolset("full-shel")).toThrow(/no tool set "full-shel" — did you mean "full-shell"\?/);
  });
});
