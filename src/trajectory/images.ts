import type { Message } from "../messages/index.js";

/**
 * The messages with image bytes dropped, each image keeping its size and `ref` (the saved frame beside
 * the trajectory). A trajectory never stores base64: a 30-step computer-use run would otherwise write
 * ~100 MB of JSON, and the frames are on disk already.
 */
export function withoutImageData(messages: readonly Message[]): Message[] {
  return messages.map((m) =>
    (m.role === "user" || m.role === "tool") && m.images?.length
      ? { ...m, images: m.images.map((image) => ({ ...image, data: "" })) }
      : m,
  );
}
