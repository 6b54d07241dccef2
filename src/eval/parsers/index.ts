import { parseNodeTap } from "./node-tap.js";
import { parsePytest } from "./pytest.js";
import type { LogParserName, TestStatusMap } from "./types.js";

export { parseNodeTap } from "./node-tap.js";
export { parsePytest } from "./pytest.js";
export type { LogParserName, TestStatus, TestStatusMap } from "./types.js";

export const LOG_PARSERS: Record<LogParserName, (log: string) => TestStatusMap> = {
  pytest: parsePytest,
  "node-tap": parseNodeTap,
};
