import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesWith } from "../../testing/processes.js";
import { EVENTUALLY } from "../../testing/time.js";
import { startApp } from "./app.js";
import { type TaskFile, TaskFileError } from "./schema.js";
import { serveStatic } from "./static-server.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "acilab-taskapp-"));
  mkdirSync(join(dir, "site", "sub"), { recursive: true });
  writeFileSync(join(dir, "site", "index.html"), "<p>hi</p>");
  writeFileSync(join(dir, "site", "app.js"), "window.X = 1;");
  writeFileSync(join(dir, "site", "sub", "data.json"), "{}");
  writeFileSync(join(dir, "site", ".env"), "API_KEY=secret");
  mkdirSync(join(dir, "site", ".git"));
  writeFileSync(join(dir, "site", ".git", "config"), "[core]");
  mkdirSync(join(dir, "site", ".well-known"));
  writeFileSync(join(dir, "site", ".well-known", "security.txt"), "Contact: x");
  writeFileSync(join(dir, "secret.txt"), "outside");
  symlinkSync(join(dir, "secret.txt"), join(dir, "site", "link.txt"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function commandTask(command: string, ready = "/"): TaskFile {
  return {
    file: join(dir, "task.yaml"),
    id: "t",
    instruction: { text: "x" },
    app: { kind: "command", command, ready, cwd: dir },
    start: undefined,
    setupJs: "",
    grade: { js: "1", doneJs: undefined },
    allowHosts: [],
    allowRequests: [],
    observe: ["a11y"],
    script: [],
  };
}

describe("a static app", () => {
  it("serves the folder with MIME types, index.html for folders, and nothing outside it", async () => {
    const app = await serveStatic(join(dir, "site"));
    try {
      const get = (path: string) => fetch(`${app.origin}${path}`);
      const index = await get("/");
      expect([index.status, index.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
      expect(await index.text()).toBe("<p>hi</p>");
      expect((await get("/app.js")).headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect((await get("/sub/data.json")).headers.get("content-type")).toContain("application/json");
      // No listing for a folder without index.html; no way out by .., an encoded .., or a symlink.
      for (const path of ["/sub/", "/../secret.txt", "/%2e%2e/secret.txt", "/link.txt", "/nope"])
        expect((await get(path)).status, path).toBe(404);
      // Nor a folder's private parts: dot-files and dot-folders, encoded or not; .well-known is a site's.
      for (const path of ["/.env", "/.git/config", "/%2egit/config", "/sub/../.env"])
        expect((await get(path)).status, path).toBe(404);
      expect((await get("/.well-known/security.txt")).status).toBe(200);
      expect((await fetch(`${app.origin}/`, { method: "POST" })).status).toBe(405);
    } finally {
      await app.close();
    }
  });
});

describe("a command app", () => {
  const server = (tag: string) =>
    // A child of the shell (not exec'd), so stopping only the shell would leave it running.
    `node -e "require('http').createServer((q,s)=>s.end(q.url==='/health'?'ok':'x')).listen({port},'127.0.0.1')" ${tag}; echo after`;

  it("starts with {port}, answers at ready, and its whole group stops on close", async () => {
    const tag = `acilab-taskapp-${process.pid}-ok`;
    const app = await startApp(commandTask(server(tag), "/health"));
    expect(await (await fetch(`${app.origin}/health`)).text()).toBe("ok");
    // The shell and the server it started.
    expect(processesWith(tag).length).toBe(2);
    await app.close();
    await expect.poll(() => processesWith(tag).length, EVENTUALLY).toBe(0);
  });

  it("names the file and app.ready when the app never answers, and stops it", async () => {
    const tag = `acilab-taskapp-${process.pid}-mute`;
    const err = await startApp(
      commandTask(`node -e "setTimeout(() => {}, 60000)" ${tag} {port}; echo after`, "/health"),
      {
        readyTimeoutMs: 400,
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskFileError);
    expect((err as TaskFileError).field).toBe("app.ready");
    expect((err as Error).message).toMatch(/task\.yaml: app\.ready: .*did not answer within 0\.4 s/);
    await expect.poll(() => processesWith(tag).length, EVENTUALLY).toBe(0);
  });

  it("quotes the output of an app that exits before it answers", async () => {
    const err = (await startApp(commandTask("echo cannot bind {port} >&2; exit 3")).catch((e) => e)) as Error;
    expect(err.message).toContain("the app exited (code 3) before it answered");
    expect(err.message).toContain("cannot bind");
  });
});
