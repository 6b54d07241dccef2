import type { LogParserName } from "../../parsers/index.js";
import { languageOf, type Parser, parserFor } from "../../syntax/index.js";

/**
 * The tree-sitter parsers twin planning needs for a runner's files, loaded before the run: planning
 * happens while the sandbox waits on the channel, synchronously.
 */
export async function twinParsers(parser: LogParserName): Promise<(path: string) => Parser | undefined> {
  if (parser === "pytest" || parser === "sympy") {
    const python = await parserFor("python");
    return (path) => (path.endsWith(".py") ? python : undefined);
  }
  if (!/^(node-tap|node-spec|jest-json|mocha-json)$/.test(parser)) return () => undefined;
  const [ts, tsx, js] = await Promise.all([
    parserFor("typescript"),
    parserFor("typescript", "x.tsx"),
    parserFor("javascript"),
  ]);
  return (path) => {
    const language = languageOf(path);
    if (language === "python" || language === undefined) return undefined;
    if (path.endsWith(".tsx")) return tsx;
    return language === "typescript" ? ts : js;
  };
}
