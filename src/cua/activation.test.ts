import { describe, expect, it } from "vitest";
import { keyEffect, reachOfKeys, typedEffect } from "./activation.js";
import type { FocusedElement, LiveControl } from "./types.js";

const control = (name: string, via: string): LiveControl => ({
  role: "button",
  name,
  label: name,
  via,
  point: { x: 10, y: 10 },
});
const DELETE = control("Delete account", "focused");
const SUBMIT = control("Delete account", "its form's submit button");
const onButton: FocusedElement = { kind: "control", self: DELETE };
const inField: FocusedElement = { kind: "text", self: control("Reason", "focused"), submit: SUBMIT };
const inTextarea: FocusedElement = { kind: "multiline", self: control("Note", "focused"), submit: SUBMIT };

describe("keyEffect and typedEffect", () => {
  it("reads Enter, space and the command modifiers in any spelling", () => {
    expect(keyEffect("Enter")).toMatchObject({ enter: true, space: false, command: false });
    expect(keyEffect("Return").enter).toBe(true);
    expect(keyEffect("KP_Enter").enter).toBe(true);
    expect(keyEffect("ctrl+Enter")).toMatchObject({ enter: true, command: true });
    expect(keyEffect("cmd+Return")).toMatchObject({ enter: true, command: true });
    expect(keyEffect("space")).toMatchObject({ enter: false, space: true });
    expect(keyEffect("shift+Tab")).toMatchObject({ enter: false, space: false, movesFocusFirst: false });
    expect(keyEffect("ctrl++")).toMatchObject({ enter: false, space: false });
  });

  it("reads alt+KEY as an access key, and a space-separated sequence as one chord", () => {
    expect(keyEffect("alt+shift+d").accessKey).toBe("d");
    expect(keyEffect("alt+Left").accessKey).toBeUndefined();
    expect(keyEffect("ctrl+a").accessKey).toBeUndefined();
    expect(keyEffect("shift+Tab Enter")).toMatchObject({ enter: true, movesFocusFirst: true });
  });

  it("knows a chord with Tab and Enter lands on an element nobody read", () => {
    expect(keyEffect("shift+Tab+Enter").movesFocusFirst).toBe(true);
    expect(keyEffect("Tab+space").movesFocusFirst).toBe(true);
  });

  it("reads typed newlines as Enter, spaces as space, and a tab before either as a focus move", () => {
    expect(typedEffect("x\n")).toMatchObject({ enter: true, movesFocusFirst: false });
    expect(typedEffect("a\r")).toMatchObject({ enter: true });
    expect(typedEffect("hello world")).toMatchObject({ enter: false, space: true });
    expect(typedEffect("Ada\t\n").movesFocusFirst).toBe(true);
    expect(typedEffect("Ada\tLovelace").movesFocusFirst).toBe(false);
    expect(typedEffect("x\n").keysAfterEnter).toBeUndefined();
    expect(typedEffect("x\ny\n").keysAfterEnter).toBe(true);
    expect(typedEffect("x\r\n").keysAfterEnter).toBe(true); // Playwright presses Enter for each
  });
});

describe("reachOfKeys", () => {
  it("lets keys that activate nothing through without reading anything", () => {
    expect(reachOfKeys(keyEffect("Tab"), undefined)).toEqual({ kind: "nothing" });
    expect(reachOfKeys(keyEffect("ArrowDown"), onButton)).toEqual({ kind: "nothing" });
    expect(reachOfKeys(keyEffect("Enter"), { kind: "none" })).toEqual({ kind: "nothing" });
  });

  it("judges the focused control for Enter and space", () => {
    expect(reachOfKeys(keyEffect("Enter"), onButton)).toEqual({ kind: "controls", controls: [DELETE] });
    expect(reachOfKeys(keyEffect("space"), onButton)).toEqual({ kind: "controls", controls: [DELETE] });
    expect(reachOfKeys(typedEffect("x "), onButton)).toEqual({ kind: "controls", controls: [DELETE] });
  });

  it("judges the form Enter would submit from a one-line field, but not a space typed there", () => {
    expect(reachOfKeys(typedEffect("x\n"), inField)).toEqual({ kind: "controls", controls: [SUBMIT] });
    expect(reachOfKeys(keyEffect("Enter"), inField)).toEqual({ kind: "controls", controls: [SUBMIT] });
    expect(reachOfKeys(typedEffect("hello world"), inField)).toEqual({ kind: "nothing" });
  });

  it("treats Enter in a textarea as a newline and ctrl/cmd+Enter as its submit", () => {
    expect(reachOfKeys(keyEffect("Enter"), inTextarea)).toEqual({ kind: "nothing" });
    expect(reachOfKeys(keyEffect("ctrl+Enter"), inTextarea)).toEqual({
      kind: "controls",
      controls: [SUBMIT],
    });
    expect(reachOfKeys(typedEffect("Dear Ada,\nthanks for the report.\n"), inTextarea)).toEqual({
      kind: "nothing",
    });
  });

  it("judges the controls an access key clicks, wherever the focus is", () => {
    const keyed = control("Delete account", "its access key");
    expect(reachOfKeys(keyEffect("alt+shift+d"), { kind: "none", accessKeyed: [keyed] })).toEqual({
      kind: "controls",
      controls: [keyed],
    });
    expect(reachOfKeys(keyEffect("alt+shift+d"), { kind: "none" })).toEqual({ kind: "nothing" });
    expect(
      reachOfKeys(keyEffect("alt+d"), undefined, "the focus is inside a cross-origin frame"),
    ).toMatchObject({
      kind: "unknown",
    });
  });

  it("fails closed when it cannot know: a Tab first, an unreadable focus, a canvas", () => {
    expect(reachOfKeys(keyEffect("shift+Tab+Enter"), onButton)).toMatchObject({
      kind: "unknown",
      reason: expect.stringMatching(/Tab moves the focus/),
    });
    expect(reachOfKeys(keyEffect("Enter"), undefined, "the focus is inside a cross-origin frame")).toEqual({
      kind: "unknown",
      reason: "the focus is inside a cross-origin frame",
    });
    expect(reachOfKeys(keyEffect("space"), { kind: "opaque" })).toMatchObject({ kind: "unknown" });
    // The first Enter may load another page: what the second one lands on is not read yet.
    expect(reachOfKeys(typedEffect("apollo\n\n"), { kind: "text", self: DELETE })).toMatchObject({
      kind: "unknown",
      reason: expect.stringMatching(/after an Enter/),
    });
  });
});

describe("arrows, type-ahead and links as activations", () => {
  const option = control("Delete account", "its radio group; arrows check another");
  const onRadio: FocusedElement = { kind: "control", self: control("Keep", "focused"), choice: [option] };

  it("reads arrows, Home/End, Page Up/Down and a plain character as changing a choice", () => {
    for (const k of ["ArrowDown", "Up", "Right", "Home", "End", "Page_Down", "PageUp", "d"])
      expect(keyEffect(k).changesChoice, k).toBe(true);
    for (const k of ["Tab", "shift+Tab", "ctrl+a", "Escape", "Enter"])
      expect(keyEffect(k).changesChoice, k).toBeUndefined();
    expect(typedEffect("de").changesChoice).toBe(true);
    expect(typedEffect("").changesChoice).toBeUndefined();
  });

  it("judges every choice an arrow or typing could land on", () => {
    expect(reachOfKeys(keyEffect("ArrowDown"), onRadio)).toEqual({ kind: "controls", controls: [option] });
    expect(reachOfKeys(typedEffect("d"), onRadio)).toEqual({ kind: "controls", controls: [option] });
    // On a plain button an arrow changes nothing.
    expect(reachOfKeys(keyEffect("ArrowDown"), onButton)).toEqual({ kind: "nothing" });
  });

  it("follows the links a focused control sits in", () => {
    const link = control("goes to account delete", "the link it is in");
    const inLink: FocusedElement = { kind: "control", self: control("Save", "focused"), links: [link] };
    expect(reachOfKeys(keyEffect("Enter"), inLink)).toEqual({
      kind: "controls",
      controls: [inLink.self, link],
    });
  });
});
