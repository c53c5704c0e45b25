/**
 * The example's two tools apart from the chat: the server tool's io-ts schema as the AI SDK reads
 * it (the JSON Schema the model sees, and validation of what the model sends, in a real run),
 * its weather table, and the client tool's wire form and answers.
 */
import * as t from "io-ts";
import { runAgentInput } from "../../../src/protocol/build";
import { run, sequentialIds } from "../../../src/server";
import { collect, expectAccepted } from "../../../test/server/support";
import { finish, scriptedModel, streamedCall, text } from "../../../test/ai/support";
import { createChatAgent } from "../agent";
import { ioTsSchema } from "../ioTsSchema";
import { getLocalTime, SharedTime, sharedTime } from "../localTime";
import { KNOWN_CITIES, lookUpWeather, WeatherQuery } from "../weather";

describe("ioTsSchema", () => {
  test("the model reads the JSON Schema derived from the codec", async () => {
    const schema = ioTsSchema(t.type({ city: t.string, days: t.Int, units: t.union([t.literal("metric"), t.literal("imperial")]), tags: t.array(t.string) }));
    expect(await schema.jsonSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        units: { type: "string", enum: ["metric", "imperial"] },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["city", "days", "units", "tags"],
    });
  });

  test("what the model sends is decoded by the codec; a mismatch names the member, the expectation and the value", async () => {
    const schema = ioTsSchema(WeatherQuery);
    expect(await schema.validate?.({ city: "Seoul" })).toEqual({ success: true, value: { city: "Seoul" } });
    const refused = await schema.validate?.({ city: 3 });
    expect(refused).toEqual({ success: false, error: new TypeError("input/city: expected string, but got 3") });
    const nothing = await schema.validate?.("Seoul");
    expect(nothing).toMatchObject({ success: false, error: { message: expect.stringMatching(/^the input: expected .*WeatherQuery.*, but got "Seoul"$/) } });
  });

  test("in a run: a call whose input does not decode is never executed, and the model reads why", async () => {
    const model = scriptedModel([...streamedCall("call-1", "get_weather", '{"city":', "3}"), finish("tool-calls")], [...text("t", "Sorry."), finish()]);
    const events = await collect(
      run(createChatAgent({ model }), runAgentInput("thread-1", "run-1", { messages: [{ id: "u1", role: "user", content: "weather?" }] }), {
        ids: sequentialIds("id"),
      }),
    );
    await expectAccepted(events);
    const result = events.find((event) => event.type === "TOOL_CALL_RESULT");
    expect(result).toMatchObject({ toolCallId: "call-1", content: expect.stringContaining("input/city: expected string, but got 3") });
    const secondPrompt = model.doStreamCalls[1].prompt;
    expect(JSON.stringify(secondPrompt.at(-1))).toContain("input/city: expected string, but got 3");
  });
});

describe("the weather table", () => {
  test("finds a city whatever its case and spaces", () => {
    expect(lookUpWeather(" new YORK ")).toEqual({ city: "New York", celsius: 25, sky: "clear" });
  });

  test("an unknown city throws, naming the cities it has", () => {
    expect(() => lookUpWeather("Gotham")).toThrow(new Error(`expected one of the cities ${KNOWN_CITIES.join(", ")}, but got "Gotham"`));
  });
});

describe("get_local_time", () => {
  test("goes on the wire with no parameters and a description the model can act on", () => {
    expect(getLocalTime.tool).toEqual({
      name: "get_local_time",
      description: expect.stringContaining("{ shared: false } when the user declines"),
      parameters: { type: "object", properties: {} },
    });
  });

  test("the card's Share answer is the browser's clock, a SharedTime", () => {
    const shared = sharedTime(new Date("2025-06-03T02:05:00Z"), { locale: "en-NZ", timeZone: "Pacific/Auckland" });
    expect(shared).toEqual({ shared: true, date: "Tuesday, 3 June 2025", time: "2:05 pm", timeZone: "Pacific/Auckland", locale: "en-NZ" });
    expect(SharedTime.is(shared)).toBe(true);
    expect(getLocalTime.encodeResult({ shared: false })).toEqual({ shared: false });
  });
});
