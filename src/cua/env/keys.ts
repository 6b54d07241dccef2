/**
 * Key combos arrive in one loose style ("Enter", "ctrl+a", "shift+Tab", "cmd+Left") and each backend
 * wants its own names: Playwright says "Control+a"/"ArrowLeft", xdotool says "ctrl+a"/"Left"/"Return".
 */

interface KeyName {
  playwright: string;
  xdotool: string;
}

const MODIFIERS: Record<string, KeyName> = {
  ctrl: { playwright: "Control", xdotool: "ctrl" },
  control: { playwright: "Control", xdotool: "ctrl" },
  alt: { playwright: "Alt", xdotool: "alt" },
  option: { playwright: "Alt", xdotool: "alt" },
  shift: { playwright: "Shift", xdotool: "shift" },
  meta: { playwright: "Meta", xdotool: "super" },
  cmd: { playwright: "Meta", xdotool: "super" },
  super: { playwright: "Meta", xdotool: "super" },
  win: { playwright: "Meta", xdotool: "super" },
};

const KEYS: Record<string, KeyName> = {
  enter: { playwright: "Enter", xdotool: "Return" },
  return: { playwright: "Enter", xdotool: "Return" },
  tab: { playwright: "Tab", xdotool: "Tab" },
  esc: { playwright: "Escape", xdotool: "Escape" },
  escape: { playwright: "Escape", xdotool: "Escape" },
  backspace: { playwright: "Backspace", xdotool: "BackSpace" },
  delete: { playwright: "Delete", xdotool: "Delete" },
  del: { playwright: "Delete", xdotool: "Delete" },
  space: { playwright: "Space", xdotool: "space" },
  up: { playwright: "ArrowUp", xdotool: "Up" },
  down: { playwright: "ArrowDown", xdotool: "Down" },
  left: { playwright: "ArrowLeft", xdotool: "Left" },
  right: { playwright: "ArrowRight", xdotool: "Right" },
  arrowup: { playwright: "ArrowUp", xdotool: "Up" },
  arrowdown: { playwright: "ArrowDown", xdotool: "Down" },
  arrowleft: { playwright: "ArrowLeft", xdotool: "Left" },
  arrowright: { playwright: "ArrowRight", xdotool: "Right" },
  home: { playwright: "Home", xdotool: "Home" },
  end: { playwright: "End", xdotool: "End" },
  pageup: { playwright: "PageUp", xdotool: "Prior" },
  page_up: { playwright: "PageUp", xdotool: "Prior" },
  pagedown: { playwright: "PageDown", xdotool: "Next" },
  page_down: { playwright: "PageDown", xdotool: "Next" },
  insert: { playwright: "Insert", xdotool: "Insert" },
};

/** A combo split into backend names; throws on an empty part ("ctrl+" or "++"). */
function parts(keys: string): Array<{ raw: string; name: KeyName | undefined }> {
  // "ctrl++" means ctrl and the plus key; split on "+" that follows a non-empty part.
  const tokens = keys.trim().split(/(?<=[^+])\+/);
  if (tokens.some((t) => t === "") || keys.trim() === "") {
    throw new Error(`key "${keys}": empty key in combo — write combos like "ctrl+a", "shift+Tab" or "Enter"`);
  }
  return tokens.map((raw, i) => {
    const lower = raw.toLowerCase();
    const isLast = i === tokens.length - 1;
    return { raw, name: (!isLast ? MODIFIERS[lower] : undefined) ?? KEYS[lower] ?? MODIFIERS[lower] };
  });
}

/** "ctrl+shift+tab" → "Control+Shift+Tab"; single characters and F-keys pass through. */
export function toPlaywrightKeys(keys: string): string {
  return parts(keys)
    .map(({ raw, name }) => name?.playwright ?? (/^f\d{1,2}$/i.test(raw) ? raw.toUpperCase() : raw))
    .join("+");
}

/** "ctrl+Enter" → "ctrl+Return" (an xdotool keysym combo). */
export function toXdotoolKeys(keys: string): string {
  return parts(keys)
    .map(({ raw, name }) => name?.xdotool ?? (raw === "+" ? "plus" : raw))
    .join("+");
}
