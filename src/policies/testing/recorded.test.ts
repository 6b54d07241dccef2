import { afterEach, describe, expect, it } from "vitest";
import { AnthropicPolicy } from "../anthropic.js";
import { OpenAIPolicy } from "../openai.js";
import type { PolicyRequest } from "../types.js";
import { issueHash, parseRecordings, RecordedModelServer, requestKey } from "./recorded.js";

const ISSUE = "median is wrong\n\nfor even lengths";
const TEXT = `a comment line
=== task t1
=== localise-files
pkg/core.py
=== repair
first
=== repair
second
=== repair status=503
overloaded
`;
const request = (stage: string, issue = ISSUE): PolicyRequest => ({
  system: `Agentless stage: ${stage}\nYou find bugs.`,
  tools: [],
  memory: "",
  messages: [{ role: "user", content: `<issue>\n${issue}\n</issue>\n\nThe files:` }],
  maxOutputTokens: 100,
  temperature: 0.5,
});

let server: RecordedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the recorded model server", () => {
  it("keys a request by its stage line and its issue's hash", () => {
    expect(requestKey("Agentless stage: repair\nmore", `x\n<issue>\n ${ISSUE} \n</issue>`)).toBe(
      `repair/${issueHash(ISSUE)}`,
    );
    expect(requestKey("You are helpful.", `<issue>\n${ISSUE}\n</issue>`)).toBeUndefined();
  });

  it("answers a stage's recordings in turn on the OpenAI wire, then again from the first", async () => {
    const recordings = parseRecordings(TEXT, () => ISSUE);
    expect(recordings.map((r) => [r.stage, r.answers.length])).toEqual([
      ["localise-files", 1],
      ["repair", 3],
    ]);
    server = await RecordedModelServer.start(recordings);
    const policy = new OpenAIPolicy({
      model: "rec",
      baseURL: `${server.url}/v1`,
      compatible: true,
      maxRetries: 0,
    });
    const texts: string[] = [];
    for (const stage of ["localise-files", "repair", "repair"])
      texts.push((await policy.next(request(stage))).message.content);
    await expect(policy.next(request("repair"))).rejects.toThrow("503");
    texts.push((await policy.next(request("repair"))).message.content);
    expect(texts).toEqual(["pkg/core.py", "first", "second", "first"]);
    expect(server.served.map((s) => s.answer)).toEqual([0, 0, 1, 2, 0]);
    expect(server.served[1]?.temperature).toBe(0.5);
  });

  it("speaks the Anthropic wire too, with usage, and 404s a request nothing matches", async () => {
    server = await RecordedModelServer.start(parseRecordings(TEXT, () => ISSUE));
    const policy = new AnthropicPolicy({ model: "rec", apiKey: "k", baseURL: server.url, maxRetries: 0 });
    const reply = await policy.next(request("localise-files"));
    expect(reply.message.content).toBe("pkg/core.py");
    expect(reply.usage.inputTokens).toBeGreaterThan(0);
    await expect(policy.next(request("localise-files", "another issue"))).rejects.toThrow(
      "no recording for key",
    );
  });
});
