import { expect, it } from "vitest";
import type { Message } from "../messages/index.js";
import { withoutImageData } from "./images.js";

it("drops image bytes and keeps each image's size and ref; other messages pass through unchanged", () => {
  const image = { type: "image", mediaType: "image/png", data: "iVBORw0KGgo", width: 4, height: 3 } as const;
  const messages: Message[] = [
    { role: "user", content: "task", images: [{ ...image, ref: "frames/step-000.png" }] },
    { role: "assistant", content: "", toolCalls: [] },
    { role: "tool", toolCallId: "1", content: "ok", images: [image] },
    { role: "tool", toolCallId: "2", content: "no image" },
  ];
  const stripped = withoutImageData(messages);
  expect(stripped[0]).toEqual({
    role: "user",
    content: "task",
    images: [{ ...image, data: "", ref: "frames/step-000.png" }],
  });
  expect(stripped[2]).toMatchObject({ images: [{ data: "", width: 4, height: 3 }] });
  expect(stripped[1]).toBe(messages[1]);
  expect(stripped[3]).toBe(messages[3]);
  expect(messages[2]).toMatchObject({ images: [{ data: "iVBORw0KGgo" }] }); // the conversation keeps its bytes
});
