/**
 * A small in-memory Environment for loop tests and the overhead benchmark: a settings page with an
 * "Open settings" button, a panel with "Save" and a "Delete account" button, and a toast. Pixels are
 * real PNGs (rendered once per visual state), elements carry screen boxes, and every executed action
 * is recorded in screen coordinates.
 */
import { encodeRaw } from "../image.js";
import {
  type Capture,
  type Environment,
  type EnvironmentStart,
  NoAccessibilityTreeError,
  type ObserveKind,
  type ScreenAction,
  type Size,
  type UiElement,
} from "../types.js";
import { fillRect, syntheticScreen } from "./frames.js";

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class MemorySettingsApp implements Environment {
  readonly kind = "browser" as const;
  readonly acts: ScreenAction[] = [];
  readonly captures: ObserveKind[] = [];
  state = { panelOpen: false, saved: false, deleted: false, typed: "", focused: false };
  /** Set to make every capture throw, as a crashed browser would. */
  captureFailure: string | undefined;
  private readonly pngs = new Map<string, Buffer>();

  constructor(
    readonly screen: Size = { width: 1920, height: 1080 },
    private readonly options: { a11y?: boolean } = {},
  ) {}

  async reset(_start: EnvironmentStart): Promise<void> {
    this.state = { panelOpen: false, saved: false, deleted: false, typed: "", focused: false };
  }

  /** Boxes scale with the screen so the same script works at any size. */
  box(name: "open" | "save" | "delete" | "field"): Box {
    const { width: w, height: h } = this.screen;
    const places: Record<typeof name, [number, number]> = {
      open: [0.05, 0.1],
      save: [0.4, 0.5],
      delete: [0.52, 0.5],
      field: [0.4, 0.4],
    };
    const [fx, fy] = places[name];
    return {
      x: Math.round(fx * w),
      y: Math.round(fy * h),
      width: Math.round(0.1 * w),
      height: Math.round(0.04 * h),
    };
  }

  elements(): UiElement[] {
    const list: Array<[string, string, Box]> = [["button", "Open settings", this.box("open")]];
    if (this.state.panelOpen) {
      list.push(["textbox", "Display name", this.box("field")]);
      list.push(["button", "Save", this.box("save")], ["button", "Delete account", this.box("delete")]);
    }
    // Focusing the field changes its state, not (in this app) its pixels: only the a11y tree sees it.
    return list.map(([role, name, box], i) =>
      role === "textbox" && this.state.focused
        ? { index: i + 1, role, name, box, states: ["focused"] }
        : { index: i + 1, role, name, box },
    );
  }

  async capture(observe: ObserveKind): Promise<Capture> {
    this.captures.push(observe);
    if (this.captureFailure) throw new Error(this.captureFailure);
    if (observe !== "screenshot" && this.options.a11y === false) {
      throw new NoAccessibilityTreeError("x11 environment: no accessibility tree; use --observe screenshot");
    }
    const key = JSON.stringify([this.state.panelOpen, this.state.saved, this.state.deleted]);
    let png = this.pngs.get(key);
    if (!png) {
      png = await this.render();
      this.pngs.set(key, png);
    }
    const capture: Capture = { png, size: { ...this.screen }, captureMs: 0 };
    if (observe === "a11y" || observe === "som") capture.elements = this.elements();
    if (observe === "dom")
      capture.dom = `<main><button>Open settings</button>${this.state.panelOpen ? "<form>…</form>" : ""}</main>`;
    return capture;
  }

  private async render(): Promise<Buffer> {
    const image = syntheticScreen(this.screen.width, this.screen.height);
    const paint = (b: Box, grey: number) => fillRect(image, b.x, b.y, b.width, b.height, grey);
    paint(this.box("open"), 90);
    if (this.state.panelOpen) {
      const { width: w, height: h } = this.screen;
      fillRect(
        image,
        Math.round(0.35 * w),
        Math.round(0.3 * h),
        Math.round(0.35 * w),
        Math.round(0.35 * h),
        240,
      );
      paint(this.box("field"), 250);
      paint(this.box("save"), 60);
      paint(this.box("delete"), 150);
    }
    if (this.state.saved)
      fillRect(
        image,
        Math.round(0.7 * this.screen.width),
        Math.round(0.85 * this.screen.height),
        300,
        60,
        30,
      );
    return encodeRaw(Buffer.from(image.data), this.screen, 4);
  }

  async act(action: ScreenAction): Promise<void> {
    this.acts.push(action);
    if (action.kind === "type") this.state.typed += action.text;
    if (action.kind !== "click") return;
    const hit = this.elements().find(
      (el) =>
        action.x >= el.box.x &&
        action.x < el.box.x + el.box.width &&
        action.y >= el.box.y &&
        action.y < el.box.y + el.box.height,
    );
    if (hit?.name === "Open settings") this.state.panelOpen = true;
    if (hit?.name === "Display name") this.state.focused = true;
    if (hit?.name === "Save") this.state.saved = true;
    if (hit?.name === "Delete account") this.state.deleted = true;
  }

  async close(): Promise<void> {}
}
