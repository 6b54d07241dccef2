import { describe, expect, it } from "vitest";
import { recheckElement } from "./recheck.js";
import { type AxTreeNode, describeElements, serialize } from "./serialize.js";

/** A node: role, name, bbox [x0, y0, x1, y1], visible, children. */
const n = (
  role: string,
  name: string,
  bbox: [number, number, number, number],
  children: AxTreeNode[] = [],
  visible = true,
): AxTreeNode => ({ role, name, bbox, visible, children });

const page = n(
  "document",
  "Checkout",
  [0, 0, 1920, 1080],
  [
    n("heading", "Your order", [40, 20, 400, 60]),
    n(
      "form",
      "",
      [40, 80, 900, 700],
      [
        n("textbox", "Email", [40, 100, 440, 140]),
        n("checkbox", "Subscribe", [40, 160, 60, 180]),
        // Hidden group: its button is not listed even though the button itself says visible.
        n("group", "Advanced", [40, 200, 440, 300], [n("button", "Reset", [40, 220, 140, 260])], false),
        n("combobox", "Country", [40, 320, 440, 360]),
        // Zero-width box: not on screen.
        n("link", "Terms", [40, 380, 40, 400]),
        n("button", "Submit", [900, 521, 1020, 561]),
      ],
    ),
    n("link", "Help", [1800, 20, 1880, 40]),
  ],
);

describe("serialize", () => {
  it("lists visible interactive nodes in depth-first pre-order, numbered from 1", () => {
    const { text, boxes, cut } = serialize(page, 10_000);
    expect(text).toBe(
      [
        '[1] textbox "Email"',
        '[2] checkbox "Subscribe"',
        '[3] combobox "Country"',
        '[4] button "Submit"',
        '[5] link "Help"',
      ].join("\n"),
    );
    expect(cut).toBe(0);
    // Box centres as floats: the Submit button of the coordinate-bug example sits at (960, 541).
    expect(boxes).toEqual([
      [240, 120],
      [50, 170],
      [240, 340],
      [960, 541],
      [1840, 30],
    ]);
  });

  it("stops at the first line that does not fit and adds [+m more], which the budget does not count", () => {
    // '[1] textbox "Email"' is 19 chars; with '\n[2] checkbox "Subscribe"' (25) the text is 44.
    expect(serialize(page, 44).text).toBe('[1] textbox "Email"\n[2] checkbox "Subscribe"\n[+3 more]');
    expect(serialize(page, 43).text).toBe('[1] textbox "Email"\n[+4 more]');
    expect(serialize(page, 19).text).toBe('[1] textbox "Email"\n[+4 more]');
    expect(serialize(page, 18).text).toBe("[+5 more]");
  });

  it("keeps centres for every element, including the cut ones, so click_element reaches them", () => {
    const { boxes, elements, cut } = serialize(page, 19);
    expect(cut).toBe(4);
    expect(boxes).toHaveLength(5);
    expect(elements[4]).toEqual({
      index: 5,
      role: "link",
      name: "Help",
      box: { x: 1800, y: 20, width: 80, height: 20 },
    });
  });

  it("an invisible root hides everything; a tree with no interactive node is empty text", () => {
    expect(serialize({ ...page, visible: false }, 1000)).toMatchObject({ text: "", boxes: [], cut: 0 });
    expect(serialize(n("document", "", [0, 0, 10, 10], [n("heading", "x", [0, 0, 5, 5])]), 1000).text).toBe(
      "",
    );
  });

  it("says states after the name and keeps names on one line", () => {
    const tree = n(
      "document",
      "",
      [0, 0, 100, 100],
      [
        { ...n("combobox", "Plan\n  type", [0, 0, 50, 20]), states: ["disabled"] },
        n("button", 'Say "hi"', [0, 30, 50, 50]),
      ],
    );
    const { text, elements } = serialize(tree, 1000);
    expect(text).toBe('[1] combobox "Plan type" (disabled)\n[2] button "Say \\"hi\\""');
    expect(describeElements(elements, 1000)).toBe(text);
  });
});

describe("recheckElement", () => {
  const el = (index: number, role: string, name: string, y: number) => ({
    index,
    role,
    name,
    box: { x: 0, y, width: 10, height: 10 },
  });
  const seen = el(2, "button", "Save", 100);

  it("keeps the same number when it is still the same control, with its fresh box", () => {
    expect(recheckElement(seen, [el(1, "link", "Home", 0), el(2, "button", "Save", 140)])?.box.y).toBe(140);
  });

  it("follows the control when a banner renumbered the page, and refuses a changed or ambiguous target", () => {
    const shifted = [
      el(1, "button", "Accept cookies", 0),
      el(2, "button", "Delete account", 100),
      el(3, "button", "Save", 184),
    ];
    expect(recheckElement(seen, shifted)?.index).toBe(3);
    expect(recheckElement(seen, [el(2, "button", "Delete account", 100)])).toBeUndefined();
    expect(recheckElement(seen, [el(1, "button", "Save", 0), el(3, "button", "Save", 50)])).toBeUndefined();
  });
});
