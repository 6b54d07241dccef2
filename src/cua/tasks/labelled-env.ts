import { type InspectableEnvironment, inSight } from "../env/index.js";
import { targetAt } from "../gate.js";
import {
  type Capture,
  type EnvironmentStart,
  NoAccessibilityTreeError,
  type ObserveKind,
  type Probe,
  type ProbeQuery,
  type RequestHook,
  type ScreenAction,
  type UiElement,
} from "../types.js";

/**
 * The task runner's wrapper around an environment. It remembers, for every action executed, the
 * control it landed on (from the last capture's elements), so contact-sheet captions read
 * `click (640, 380) → button "Save"`; the policy never sees that. (A capture taken mid-navigation is
 * the environment's to settle: BrowserEnvironment waits for it.)
 */
export class LabelledEnvironment implements InspectableEnvironment {
  /** One entry per executed action, in order: the control's `role "name"`, or "" when none. */
  readonly labels: string[] = [];
  private elements: readonly UiElement[] = [];

  /** Scrolling an offscreen element into view, passed through when the environment can (click_element). */
  readonly reveal?: (element: UiElement) => Promise<void>;

  constructor(private readonly inner: InspectableEnvironment) {
    const reveal = inner.reveal?.bind(inner);
    if (reveal) this.reveal = reveal;
  }

  get kind() {
    return this.inner.kind;
  }
  get screen() {
    return this.inner.screen;
  }
  get refusals() {
    return this.inner.refusals;
  }
  get pageEvents() {
    return this.inner.pageEvents;
  }
  get downloads() {
    return this.inner.downloads;
  }
  get sandboxWarning() {
    return this.inner.sandboxWarning;
  }
  get lastStartup() {
    return this.inner.lastStartup;
  }

  get heldRequests() {
    return this.inner.heldRequests;
  }

  approveRequests(hook: RequestHook): void {
    this.inner.approveRequests?.(hook);
  }

  reset(start: EnvironmentStart): Promise<void> {
    return this.inner.reset(start);
  }

  async capture(observe: ObserveKind): Promise<Capture> {
    const capture = await this.inner.capture(observe);
    this.elements = capture.elements ?? [];
    return capture;
  }

  async act(action: ScreenAction): Promise<void> {
    const point =
      "x" in action ? { x: action.x, y: action.y } : action.kind === "drag" ? action.from : undefined;
    const hit =
      point && action.kind !== "scroll" && action.kind !== "move"
        ? targetAt(point, this.elements.filter(inSight), 0)
        : undefined;
    this.labels.push(hit ? `${hit.role} "${hit.name}"` : "");
    return this.inner.act(action);
  }

  /** The confirmation gate's live reading, passed through (it must see the page the actions reach). */
  probe(query: ProbeQuery): Promise<Probe> {
    if (!this.inner.probe) {
      return Promise.reject(
        new NoAccessibilityTreeError(`${this.inner.kind} environment: no live page to read`),
      );
    }
    return this.inner.probe(query);
  }

  evaluate<T>(script: string): Promise<T> {
    return this.inner.evaluate<T>(script);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
