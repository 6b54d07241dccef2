/**
 * The computer-use loop (seed 002): capture once → judge the change → show the model → validate its
 * action → map it to the screen → gate it → act. Everything else plugs in around it: the session
 * (limits, ledger, history, records), the perceiver (capture, downscale, frames) and performCall
 * (validate, map, gate, act).
 */
import { performCall } from "./act.js";
import { describeAction } from "./actions.js";
import type { CuaEpisode, CuaOutcome } from "./episode.js";
import { joinParts } from "./observation.js";
import { EpisodeSession } from "./session.js";
import { perceptualDelta } from "./stall.js";

export type { CuaEpisode } from "./episode.js";

const NO_TOOL_CALL =
  "error: your reply called no tool. Call exactly one tool each turn; call done when finished.";

export async function runCuaEpisode(ep: CuaEpisode): Promise<CuaOutcome> {
  const s = new EpisodeSession(ep);
  try {
    if (ep.reset !== false) await ep.env.reset(ep.task.start);
    let frame = await s.see(0, "start");
    s.messages.push({
      role: "user",
      content: joinParts(s.taskText(frame), frame.text),
      images: [frame.image],
    });
    for (;;) {
      const stop = s.limitReached();
      if (stop) return s.end(stop.reason, stop.detail);
      const turn = await s.ask();
      const [call, ...extra] = turn.reply.message.toolCalls;
      if (!call) {
        s.answer(turn, [{ role: "user", content: NO_TOOL_CALL }]);
        continue;
      }
      const result = await performCall(call, s.actContext(frame));
      if (result.kind === "done") {
        s.answer(turn, [{ role: "tool", toolCallId: call.id, content: "ok: done" }], { call });
        return s.end("done", result.summary, result.summary);
      }
      const previous = frame;
      frame = await s.see(turn.step, result.action ? describeAction(result.action) : `invalid ${call.name}`);
      const stall = s.stall.observe(
        perceptualDelta(previous.thumb, frame.thumb),
        s.stateChanged(previous, frame),
      );
      const repeat = result.action ? s.repeat.observe(result.action) : undefined;
      const warnings = [stall.warning, repeat?.warning].filter((w): w is string => w !== undefined);
      const content = joinParts(result.text, ...warnings, frame.text);
      s.answer(
        turn,
        [
          {
            role: "tool",
            toolCallId: call.id,
            content,
            images: [frame.image],
            ...(result.error ? { isError: true } : {}),
          },
          ...extra.map((c) => s.notRun(c.id)),
        ],
        { call, result, frame, stall, repeats: repeat?.count ?? 0, warnings },
      );
      if (stall.halt) return s.end("stalled", `no visible change across ${stall.stalls} steps in a row`);
      if (repeat?.halt && result.action) {
        return s.end("repeated", `${describeAction(result.action)} asked for ${repeat.count} times in a row`);
      }
    }
  } catch (err) {
    return s.fail(err);
  }
}
