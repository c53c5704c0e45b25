/** The README's model-backed agent, as written there, with the AI SDK's mock model in place of `openai("gpt-4o")` and a free port. */
import { HttpAgent } from "@ag-ui/client";
import { jsonSchema, tool } from "ai";
import { aiAgent } from "../../src/ai";
import { createHandler } from "../../src/server";
import { serve } from "../../src/node/serve";
import { finish, scriptedModel, streamedCall, text } from "./support";

test("README: a model-backed agent in ten lines answers the official client over HTTP", async () => {
  const model = scriptedModel(
    [...streamedCall("call-1", "get_weather", '{"city":"Seoul"}'), finish("tool-calls")],
    [...text("txt", "21°C in Seoul."), finish()],
  );

  const weather = jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
  const get_weather = tool({ description: "The weather in a city", inputSchema: weather, execute: async ({ city }) => ({ city, celsius: 21 }) });
  const agent = aiAgent({ model, system: "You answer questions about the weather.", tools: { get_weather } });
  const served = await serve(createHandler(agent), { port: 0 });

  try {
    const client = new HttpAgent({ url: served.url, threadId: "t1", initialMessages: [{ id: "u1", role: "user", content: "Weather in Seoul?" }] });
    await client.runAgent({ runId: "r1" });
    expect(client.messages.map((m) => [m.role, "content" in m ? m.content : undefined])).toEqual([
      ["user", "Weather in Seoul?"],
      ["assistant", undefined],
      ["tool", '{"city":"Seoul","celsius":21}'],
      ["assistant", "21°C in Seoul."],
    ]);
    expect(model.doStreamCalls[0].prompt[0]).toEqual({ role: "system", content: "You answer questions about the weather." });
  } finally {
    await served.close();
  }
});
