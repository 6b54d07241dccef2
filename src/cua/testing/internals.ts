/**
 * Computer-use internals the benchmarks (bench/cua.ts, bench/capture.ts) time directly: PNG encoding
 * and thumbnails, the X11 frame-buffer decoder, and the two environments by class. Runs reach these
 * through the area's index (createEnvironment, the loop), never by name.
 */
export { BrowserEnvironment } from "../env/browser.js";
export { X11Environment } from "../env/x11.js";
export { decodeXwd } from "../env/xwd.js";
export { encodeRaw, thumbnail } from "../image.js";
export { fillRect, syntheticScreen } from "./frames.js";
