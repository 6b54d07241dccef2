import { describe, expect, it } from "vitest";
import { firstChange } from "../history/index.js";
import type { ImagePart, Message } from "../messages/index.js";
import { OMITTED, parseScreenshotHistory } from "./history.js";

const image = (n: number): ImagePart => ({
  type: "image",
  mediaType: "image/png",
  data: `png${n}`,
  width: 10,
  height: 10,
});

/** The conversation after `turns` turns: goal + image, then reply + screenshot result per turn. */
function conversation(turns: number): Message[] {
  const messages: Message[] = [{ role: "user", content: "goal", images: [image(1)] }];
  for (let t = 2; t <= turns; t++) {
    messages.push({ role: "assistant", content: `a${t - 1}`, toolCalls: [] });
    messages.push({ role: "tool", toolCallId: `c${t}`, content: `ok ${t}`, images: [image(t)] });
  }
  return messages;
}

const imagesIn = (messages: Message[]) =>
  messages.flatMap((m) =>
    m.role === "user" || m.role === "tool" ? (m.images ?? []).map((i) => i.data) : [],
  );

describe("screenshot history", () => {
  it("all: sends every screenshot, the same message objects (append-only prefix)", () => {
    const h = parseScreenshotHistory("all");
    const messages = conversation(5);
    const sent = h.apply(messages, 4);
    expect(imagesIn(sent)).toEqual(["png1", "png2", "png3", "png4", "png5"]);
    expect(sent.every((m, i) => m === messages[i])).toBe(true);
  });

  it("last:k keeps the newest k screenshots and leaves a placeholder; the text stays", () => {
    const sent = parseScreenshotHistory("last:2").apply(conversation(5), 4);
    expect(imagesIn(sent)).toEqual(["png4", "png5"]);
    expect(sent[0]?.content).toBe(`goal\n${OMITTED}`);
    expect(sent[2]?.content).toBe(`ok 2\n${OMITTED}`);
  });

  it("last:k rewrites the prefix every turn; batch:k:E only on its trim steps", () => {
    const lastN = parseScreenshotHistory("last:2");
    expect(firstChange(lastN.apply(conversation(4), 3), lastN.apply(conversation(5), 4))).toBeLessThan(7);

    const batch = parseScreenshotHistory("batch:2:4");
    const requests = [1, 2, 3, 4, 5, 6, 7].map((turns) => batch.apply(conversation(turns), turns - 1));
    // Steps 1–3 append to an untouched prefix; step 4 trims; steps 5–6 append to the trimmed one.
    for (const step of [1, 2, 3, 5, 6]) {
      const prev = requests[step - 1] as Message[];
      expect(firstChange(prev, requests[step] as Message[])).toBe(prev.length);
    }
    expect(firstChange(requests[3] as Message[], requests[4] as Message[])).toBe(0);
    expect(imagesIn(requests[4] as Message[])).toEqual(["png4", "png5"]);
    expect(imagesIn(requests[6] as Message[])).toEqual(["png4", "png5", "png6", "png7"]);
  });

  it("never mutates the history it is given", () => {
    const messages = conversation(4);
    const copy = structuredClone(messages);
    parseScreenshotHistory("last:1").apply(messages, 3);
    expect(messages).toEqual(copy);
  });

  it("refuses a bad spec with an example of a good one", () => {
    expect(() => parseScreenshotHistory("last:0")).toThrow(
      /use all, last:<k> or batch:<k>:<every>.*batch:3:8/,
    );
    expect(() => parseScreenshotHistory("keep")).toThrow(/screenshot history "keep"/);
    expect(parseScreenshotHistory("batch:3:8").name).toBe("batch:3:8");
  });
});
