import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionError, SessionStore } from "./sessions.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "acilab-sessions-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("saved sessions", () => {
  it("saves the conversation and patch, and opens them again", () => {
    const store = new SessionStore(root);
    const s = store.create("/repo", "scripted:x.json", "fix the bug\nmore detail");
    s.conversation.push({ role: "user", content: "fix the bug" });
    s.save("diff --git a/x b/x\n");
    const again = store.open(s.id);
    expect(again.conversation).toEqual([{ role: "user", content: "fix the bug" }]);
    expect(again.savedPatch()).toBe("diff --git a/x b/x\n");
    expect(again.meta.title).toBe("fix the bug");
    expect(store.latest("/repo").id).toBe(s.id);
    expect(store.list("/other")).toEqual([]);
  });

  it("says what to do about a missing, damaged or malformed session", () => {
    const store = new SessionStore(root);
    expect(() => store.open("../etc")).toThrow(/is not a session id/);
    expect(() => store.open("nope")).toThrow(/there is no session nope.*--sessions/);
    expect(() => store.latest("/repo")).toThrow(/no earlier session.*without --continue/);
    mkdirSync(join(root, "broken"));
    writeFileSync(join(root, "broken", "session.json"), "{ not json");
    expect(() => store.open("broken")).toThrow(SessionError);
    expect(() => store.open("broken")).toThrow(/not valid JSON/);
    // A damaged folder does not hide the others from --continue.
    const s = store.create("/repo", "p", "t");
    expect(store.list("/repo").map((m) => m.id)).toEqual([s.id]);
  });
});
