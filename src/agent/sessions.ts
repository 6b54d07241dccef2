/**
 * Saved conversations: one folder per session under the state directory, holding what a resumed
 * session needs — the conversation, the agent's unapplied changes as a patch, the checkpoints, the
 * trajectory. Written after every turn (atomically), so a killed session resumes where it stopped.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { Message } from "../messages/index.js";

/** Where sessions live: ACILAB_STATE_DIR, else $XDG_STATE_HOME/acilab, else ~/.local/state/acilab. */
export function defaultStateDir(): string {
  const env = process.env;
  if (env.ACILAB_STATE_DIR) return env.ACILAB_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "acilab");
}

const Meta = z.object({
  id: z.string(),
  repo: z.string(),
  created: z.string(),
  updated: z.string(),
  policy: z.string(),
  /** The first prompt's first line: what `--resume` lists. */
  title: z.string(),
  turns: z.number().int(),
  /** Dollars over all turns so far; null once any model had no price. */
  cost_usd: z.number().nullable(),
  /** Set once the changes went to the real tree. */
  applied: z.string().nullable(),
});
export type SessionMeta = z.infer<typeof Meta>;

export class SessionError extends Error {
  override name = "SessionError";
}

export class Session {
  constructor(
    readonly dir: string,
    public meta: SessionMeta,
    /** The conversation so far; the loop appends to this array in place. */
    readonly conversation: Message[],
  ) {}

  get id(): string {
    return this.meta.id;
  }
  get patchFile(): string {
    return join(this.dir, "patch.diff");
  }
  get trajectoryFile(): string {
    return join(this.dir, "trajectory.jsonl");
  }
  get checkpointDir(): string {
    return join(this.dir, "checkpoints");
  }
  /** The patch a resumed session starts from ("" when the agent changed nothing yet). */
  savedPatch(): string {
    return existsSync(this.patchFile) ? readFileSync(this.patchFile, "utf8") : "";
  }

  /** Save the conversation, the meta and (when given) the current patch. */
  save(patch?: string): void {
    this.meta = { ...this.meta, updated: new Date().toISOString() };
    if (patch !== undefined) atomicWrite(this.patchFile, patch);
    atomicWrite(join(this.dir, "conversation.json"), `${JSON.stringify(this.conversation)}\n`);
    atomicWrite(join(this.dir, "session.json"), `${JSON.stringify(this.meta, null, 2)}\n`);
  }
}

export class SessionStore {
  constructor(readonly root: string = join(defaultStateDir(), "sessions")) {}

  create(repo: string, policy: string, title: string): Session {
    const now = new Date();
    const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    const id = `${stamp}-${randomBytes(3).toString("hex")}`;
    const dir = join(this.root, id);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const meta: SessionMeta = {
      id,
      repo,
      created: now.toISOString(),
      updated: now.toISOString(),
      policy,
      title: title.split("\n")[0]?.slice(0, 80) ?? "",
      turns: 0,
      cost_usd: 0,
      applied: null,
    };
    const session = new Session(dir, meta, []);
    session.save();
    return session;
  }

  open(id: string): Session {
    if (!/^[\w.-]+$/.test(id))
      throw new SessionError(`"${id}" is not a session id; list them with acilab agent --sessions`);
    const dir = join(this.root, id);
    const metaFile = join(dir, "session.json");
    if (!existsSync(metaFile))
      throw new SessionError(
        `there is no session ${id} in ${this.root}; list them with acilab agent --sessions`,
      );
    const meta = Meta.safeParse(readJson(metaFile));
    if (!meta.success)
      throw new SessionError(`${metaFile} is damaged (${z.prettifyError(meta.error)}); start a new session`);
    const conversationFile = join(dir, "conversation.json");
    const conversation = existsSync(conversationFile) ? (readJson(conversationFile) as Message[]) : [];
    if (!Array.isArray(conversation))
      throw new SessionError(`${conversationFile} is not a list of messages; start a new session`);
    return new Session(dir, meta.data, conversation);
  }

  /** Sessions, newest first; only those of `repo` when given. Damaged folders are skipped. */
  list(repo?: string): SessionMeta[] {
    if (!existsSync(this.root)) return [];
    const metas: SessionMeta[] = [];
    for (const id of readdirSync(this.root)) {
      const parsed = Meta.safeParse(readJsonOrUndefined(join(this.root, id, "session.json")));
      if (parsed.success && (repo === undefined || parsed.data.repo === repo)) metas.push(parsed.data);
    }
    return metas.sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
  }

  /** The newest session of `repo` (`--continue`). */
  latest(repo: string): Session {
    const newest = this.list(repo)[0];
    if (!newest)
      throw new SessionError(`there is no earlier session for ${repo}; start one without --continue`);
    return this.open(newest.id);
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new SessionError(`${file} is not valid JSON (${(err as Error).message}); start a new session`);
  }
}

function readJsonOrUndefined(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function atomicWrite(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}
