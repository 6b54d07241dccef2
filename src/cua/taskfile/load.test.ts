import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadTaskFile, loadTaskFolder } from "./load.js";
import { TaskFileError } from "./schema.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-taskfile-"));
  mkdirSync(join(dir, "site"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const GOOD = `id: press-the-red-button
instruction: Press the red button.
app:
  static: ./site
start: /index.html
grade:
  js: window.REWARD > 0
  done_js: window.DONE === true
allow_hosts: []
observe: [screenshot, a11y]
script:
  - click: { role: button, name: Red }
  - done: pressed
`;

function write(text: string, name = "task.yaml"): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function problem(text: string): TaskFileError {
  try {
    loadTaskFile(write(text));
  } catch (err) {
    if (err instanceof TaskFileError) return err;
    throw err;
  }
  throw new Error("the task file loaded");
}

describe("task files", () => {
  it("loads the issue's example with its paths resolved against the file", () => {
    const task = loadTaskFile(write(GOOD));
    expect(task).toMatchObject({
      id: "press-the-red-button",
      instruction: { text: "Press the red button." },
      app: { kind: "static", dir: join(dir, "site") },
      start: "/index.html",
      grade: { js: "window.REWARD > 0", doneJs: "window.DONE === true" },
      observe: ["screenshot", "a11y"],
      script: [{ click: { role: "button", name: "Red" } }, { done: "pressed" }],
    });
  });

  it("names the file, the line and column, and the keys there are, for an unknown key", () => {
    const err = problem(GOOD.replace("allow_hosts: []", "allowed_hosts: []"));
    expect(err.field).toBe("allowed_hosts");
    expect(err.at).toEqual({ line: 9, column: 1 });
    expect(err.message).toMatch(
      /task\.yaml:9:1: allowed_hosts: unknown key "allowed_hosts" — the keys are id, /,
    );
    expect(problem(GOOD.replace("  done_js:", "  done:")).field).toBe("grade.done");
  });

  it("loads allow_requests rules, and names a rule that does not parse at its line", () => {
    const task = loadTaskFile(
      write(GOOD.replace("allow_hosts: []", 'allow_requests: ["POST /api/search", "WS /live"]')),
    );
    expect(task.allowRequests).toEqual(["POST /api/search", "WS /live"]);
    const err = problem(GOOD.replace("allow_hosts: []", "allow_requests:\n  - POST /ok\n  - /api/search"));
    expect(err.field).toBe("allow_requests[1]");
    expect(err.at).toEqual({ line: 11, column: 5 });
    expect(err.message).toMatch(
      /"\/api\/search" is not "METHOD PATTERN" — write e\.g\. "POST \/api\/search"/,
    );
  });

  it("says which folder is missing and that it is relative to the task file", () => {
    const err = problem(GOOD.replace("./site", "./www"));
    expect(err.field).toBe("app.static");
    expect(err.message).toContain(`no folder ${join(dir, "www")}`);
    expect(err.message).toContain("relative to the task file");
  });

  it("refuses a static folder that is the filesystem root or holds the home directory", () => {
    for (const folder of ["/", homedir(), dirname(homedir())]) {
      const err = problem(GOOD.replace("./site", folder));
      expect(err.field, folder).toBe("app.static");
      expect(err.message).toMatch(/the page and the model could read every file in it/);
    }
  });

  it("reports bad YAML at its line and column", () => {
    const err = problem("id: x\ngrade:\n  js: [1, 2\n");
    expect(err.at?.line).toBeGreaterThanOrEqual(3);
    expect(err.message).toMatch(/task\.yaml:\d+:\d+: not valid YAML: .* — fix the file at that line/);
  });

  it("asks for exactly one instruction, a command with {port}, and a grade", () => {
    expect(problem(GOOD.replace("instruction:", "instruction_js: document.title\ninstruction:")).field).toBe(
      "instruction",
    );
    expect(problem(GOOD.replace("instruction: Press the red button.\n", "")).message).toContain(
      "write exactly one of instruction",
    );
    const cmd = problem(GOOD.replace("static: ./site", "command: python3 -m http.server"));
    expect([cmd.field, cmd.message]).toEqual(["app.command", expect.stringContaining('has no "{port}"')]);
    const grade = problem(GOOD.replace("  js: window.REWARD > 0\n", ""));
    expect(grade.field).toBe("grade.js");
    expect(grade.message).toContain("an expression read in the page");
  });

  it("asks for an http(s) URL for an app that is already running", () => {
    for (const url of ["ftp://127.0.0.1/", "localhost:8080", "file:///etc/passwd"]) {
      const err = problem(GOOD.replace("static: ./site", `url: "${url}"`));
      expect(err.field, url).toBe("app.url");
      expect(err.message, url).toContain("not an http(s) URL — write the page your app serves");
    }
    expect(
      loadTaskFile(write(GOOD.replace("static: ./site", "url: http://127.0.0.1:8080/"))).app,
    ).toMatchObject({
      kind: "url",
    });
  });

  it("checks the script against the scripted step format", () => {
    const err = problem(GOOD.replace("- done: pressed", "- press: Red"));
    expect(err.field).toMatch(/^script\[1\]/);
  });

  it("loads a folder of task folders, and lists every broken one with the good ones", () => {
    mkdirSync(join(dir, "a", "site"), { recursive: true });
    mkdirSync(join(dir, "b"));
    writeFileSync(join(dir, "a", "task.yaml"), GOOD);
    writeFileSync(join(dir, "b", "task.yaml"), GOOD.replace("id: press-the-red-button", "id: Bad Id"));
    const { tasks, problems } = loadTaskFolder(dir);
    expect(tasks.map((t) => t.id)).toEqual(["press-the-red-button"]);
    expect(problems.map((p) => p.field)).toEqual(["id"]);
    expect(loadTaskFolder(join(dir, "nowhere")).problems[0]?.message).toContain("no such file or folder");
  });
});
