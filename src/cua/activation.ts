/**
 * What a key press or typed text would activate, given where the focus is (the live page's reading,
 * ./env/probe-script.ts). Pure, so every rule is a unit test: Enter and space activate the focused
 * control (and the links it sits in); Enter in a one-line field submits its form; ctrl/cmd+Enter
 * submits from a textarea; arrows, Home/End, Page Up/Down and type-ahead change a focused select,
 * radio group or range — a change a page may submit, so each choice it could land on is judged; Tab
 * only moves the focus, so a chord or a text where Enter or space follows a Tab lands on an element
 * nobody has read yet: "unknown", and the gate fails closed.
 */
import type { FocusedElement, LiveControl } from "./types.js";

/** What an input reaches: nothing that activates, some controls to judge, or something nobody can read. */
export type Reach =
  | { kind: "nothing" }
  | { kind: "controls"; controls: LiveControl[] }
  | { kind: "unknown"; reason: string };

/** What the keys of one press do to the focused element. */
export interface KeyEffect {
  enter: boolean;
  space: boolean;
  /** ctrl / cmd / meta held: ctrl+Enter is many apps' "send" from a textarea. */
  command: boolean;
  /** A Tab in the same chord or earlier in the text: the focus moves before Enter or space lands. */
  movesFocusFirst: boolean;
  /** alt (+shift) and one character: the access-key chord, which clicks the element with that accesskey. */
  accessKey?: string;
  /**
   * Typed text with an Enter or a space after its first newline: that Enter may submit a form or load
   * another page, and what the rest lands on there cannot be read now.
   */
  keysAfterEnter?: boolean;
  /** Arrows, Home/End, Page Up/Down or a printable character: what changes a select, radio group or range. */
  changesChoice?: boolean;
}

const ENTER = new Set(["enter", "return", "kp_enter", "numpadenter", "kp_return"]);
const SPACE = new Set(["space", " ", "kp_space"]);
const COMMAND = new Set(["ctrl", "control", "meta", "cmd", "super", "win", "command"]);
/** Keys that move a select's, radio group's or range's value. */
const CHOICE_KEYS = new Set([
  "up",
  "down",
  "left",
  "right",
  "arrowup",
  "arrowdown",
  "arrowleft",
  "arrowright",
  "home",
  "end",
  "pageup",
  "pagedown",
  "page_up",
  "page_down",
  "prior",
  "next",
]);

/** A combo as the environments read it (keys.ts): parts split on "+", "ctrl++" meaning ctrl and plus. */
export function keyEffect(keys: string): KeyEffect {
  // The key schema allows one combo; a space-separated sequence is read as one too, to fail safe.
  const combos = keys.trim().split(/\s+/);
  const parts = combos.flatMap((c) => c.split(/(?<=[^+])\+/)).map((p) => p.toLowerCase());
  const enter = parts.some((p) => ENTER.has(p));
  const space = parts.some((p) => SPACE.has(p));
  const last = parts.at(-1) ?? "";
  const alt = parts.slice(0, -1).some((p) => p === "alt" || p === "option");
  const command = parts.some((p) => COMMAND.has(p));
  const typeAhead = !command && !alt && [...last].length === 1 && last !== "+";
  return {
    enter,
    space,
    command,
    movesFocusFirst: (enter || space) && parts.includes("tab"),
    ...(alt && combos.length === 1 && [...last].length === 1 ? { accessKey: last } : {}),
    ...(parts.some((p) => CHOICE_KEYS.has(p)) || typeAhead ? { changesChoice: true } : {}),
  };
}

/**
 * Typed text as keys: a newline is Enter (Playwright and xdotool both press Return for it), a space
 * is space (which presses a focused button), a tab moves the focus.
 */
export function typedEffect(text: string): KeyEffect {
  const tab = text.indexOf("\t");
  const after = tab < 0 ? "" : text.slice(tab + 1);
  const enter = /[\r\n]/.test(text);
  const space = text.includes(" ");
  const newline = text.search(/[\r\n]/);
  return {
    enter,
    space,
    command: false,
    movesFocusFirst: tab >= 0 && /[\r\n ]/.test(after),
    ...(newline >= 0 && /[\r\n ]/.test(text.slice(newline + 1)) ? { keysAfterEnter: true } : {}),
    // Typing into a select or radio group picks the option that starts with what was typed.
    ...(/[^\s]/u.test(text) ? { changesChoice: true } : {}),
  };
}

/** What `effect` activates on `focus` (undefined focus: the page could not say, see `unreadable`). */
export function reachOfKeys(
  effect: KeyEffect,
  focus: FocusedElement | undefined,
  unreadable?: string,
): Reach {
  if (effect.accessKey !== undefined) {
    if (!focus) return { kind: "unknown", reason: unreadable ?? "the page's access keys could not be read" };
    if (focus.accessKeyed?.length) return { kind: "controls", controls: focus.accessKeyed };
  }
  const choice = effect.changesChoice && focus?.choice?.length ? focus.choice : [];
  if (!effect.enter && !effect.space)
    return choice.length > 0 ? { kind: "controls", controls: choice } : { kind: "nothing" };
  if (effect.movesFocusFirst) {
    return {
      kind: "unknown",
      reason:
        "a Tab moves the focus before Enter or space lands, onto an element nobody has read yet; press Tab on its own first",
    };
  }
  if (!focus) return { kind: "unknown", reason: unreadable ?? "where the focus is could not be read" };
  if (effect.keysAfterEnter && (focus.kind === "text" || focus.kind === "control")) {
    return {
      kind: "unknown",
      reason:
        "the text goes on after an Enter, which may load another page before the rest lands; type up to the first newline, then look",
    };
  }
  const controls: LiveControl[] = [...choice];
  switch (focus.kind) {
    case "none":
      return { kind: "nothing" };
    case "opaque":
      return {
        kind: "unknown",
        reason: "the focus is on a canvas or an embedded object, whose keys cannot be read",
      };
    case "text":
      // Space types a space; Enter (with or without a modifier) submits the field's form.
      if (effect.enter && focus.submit) controls.push(focus.submit);
      break;
    case "multiline":
      // Enter is a newline; ctrl/cmd+Enter is how textareas submit.
      if (effect.enter && effect.command && focus.submit) controls.push(focus.submit);
      break;
    case "control":
      if (focus.self) controls.push(focus.self);
      // The press bubbles to the links the control sits in: a button inside <a href> follows it.
      controls.push(...(focus.links ?? []));
      // Enter on a checkbox or radio submits its form too (implicit submission).
      if (effect.enter && focus.submit) controls.push(focus.submit);
      break;
  }
  return controls.length > 0 ? { kind: "controls", controls } : { kind: "nothing" };
}
