import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * The user's acilab configuration folder: `$ACILAB_CONFIG_DIR`, else `$XDG_CONFIG_HOME/acilab`, else
 * `~/.config/acilab` (the XDG default). An empty variable counts as unset, as XDG says.
 */
export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ACILAB_CONFIG_DIR) return resolve(env.ACILAB_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME) return join(resolve(env.XDG_CONFIG_HOME), "acilab");
  return join(homedir(), ".config", "acilab");
}
