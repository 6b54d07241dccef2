import { describe, expect, it } from "vitest";
import { byId, el, viewOf } from "../testing/snapshot.js";
import { containerClips, intersect, isEmpty } from "./clip.js";

/** A panel that scrolls on its own (100 px tall) holding rows, one scrolled out of it. */
const page = el(
  "HTML",
  [0, 0, 800, 600],
  [
    el(
      "BODY",
      [0, 0, 800, 600],
      [
        el(
          "DIV",
          [10, 10, 200, 100],
          [
            el("DIV", [10, 20, 200, 20], [], { attrs: { id: "in" } }),
            el("DIV", [10, 140, 200, 20], [], { attrs: { id: "out" } }),
            el("DIV", [10, 140, 200, 20], [], { attrs: { id: "abs" }, style: { position: "absolute" } }),
            el("DIV", [10, 140, 200, 20], [], { attrs: { id: "fixed" }, style: { position: "fixed" } }),
          ],
          { attrs: { id: "panel" }, style: { "overflow-y": "auto" } },
        ),
        el(
          "DIV",
          [300, 10, 200, 100],
          [
            el(
              "DIV",
              [300, 10, 100, 50],
              [
                el("DIV", [300, 200, 50, 20], [], {
                  attrs: { id: "abs-in-positioned" },
                  style: { position: "absolute" },
                }),
              ],
              { style: { "overflow-x": "hidden" } },
            ),
          ],
          { style: { position: "relative", "overflow-y": "scroll" } },
        ),
      ],
    ),
  ],
);

describe("containerClips: what a scrolling container lets show", () => {
  const view = viewOf(page);
  const clipOf = containerClips(view);
  const shown = (id: string) => {
    const n = byId(view, id);
    const box = view.box(n);
    const clip = clipOf(n);
    return box && clip ? !isEmpty(intersect(clip, box)) : box !== undefined;
  };

  it("clips a row to its panel: in view shows, scrolled out shows nothing", () => {
    expect(clipOf(byId(view, "in"))).toEqual([10, 10, 210, 110]);
    expect(shown("in")).toBe(true);
    expect(shown("out")).toBe(false);
    // The panel itself is not clipped by <body>: the page scrolls the viewport, which the caller clips.
    expect(clipOf(byId(view, "panel"))).toBeUndefined();
  });

  it("lets positioned elements escape containers that are not their containing block", () => {
    // Absolute, under a static panel: the panel does not clip it. Fixed: nothing does.
    expect(shown("abs")).toBe(true);
    expect(shown("fixed")).toBe(true);
    // Absolute under a positioned, scrolling ancestor: that ancestor clips it (the static one between does not).
    expect(clipOf(byId(view, "abs-in-positioned"))).toEqual([300, 10, 500, 110]);
    expect(shown("abs-in-positioned")).toBe(false);
  });
});
