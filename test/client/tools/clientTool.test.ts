import { ToolSchema } from "@ag-ui/core/schemas";
import * as E from "fp-ts/Either";
import * as t from "io-ts";
import { clientTool, isClientTool } from "../../../src/client/tools/clientTool";
import { ClientToolError } from "../../../src/client/tools/ClientToolError";
import { resolveTools } from "../../../src/client/tools/resolveTools";
import { Tool } from "../../../src/protocol/input";
import { compile } from "./support";

const noop = (): void => undefined;

/** Runs `make` and returns the ClientToolError it throws. */
function refusal(make: () => unknown): ClientToolError {
  try {
    make();
  } catch (error) {
    if (ClientToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ClientToolError, but nothing was thrown");
}

describe("clientTool", () => {
  const getWeather = clientTool({
    name: "get_weather",
    description: "The weather in a city",
    parameters: t.type({ city: t.string, unit: t.union([t.keyof({ c: null, f: null }), t.undefined]) }),
    execute: ({ city }) => ({ city, temperature: 21 }),
  });

  test("its wire form is the name, the description and the derived schema, valid for both codecs of Tool", () => {
    expect(getWeather.tool).toEqual({
      name: "get_weather",
      description: "The weather in a city",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] } },
        required: ["city"],
      },
    });
    const wire: unknown = JSON.parse(JSON.stringify(getWeather.tool));
    expect(wire).toEqual(getWeather.tool);
    expect(E.isRight(Tool.decode(wire))).toBe(true);
    expect(ToolSchema.safeParse(wire).success).toBe(true);
    const valid = compile(getWeather.tool.parameters as object); // Tool.parameters is `unknown` on the wire type
    expect(valid({ city: "Seoul" })).toBe(true);
    expect(valid({ city: 1 })).toBe(false);
  });

  test("is frozen and recognised by isClientTool; plain tools and look-alikes are not", () => {
    expect(Object.isFrozen(getWeather)).toBe(true);
    expect(isClientTool(getWeather)).toBe(true);
    expect(isClientTool(getWeather.tool)).toBe(false);
    expect(isClientTool({ kind: "client-tool", name: "x" })).toBe(false);
    expect(isClientTool(null)).toBe(false);
  });

  test("without parameters it takes no arguments: an empty object", () => {
    const now = clientTool({ name: "get_time", description: "The local time", execute: () => "12:00" });
    expect(now.tool.parameters).toEqual({ type: "object", properties: {} });
    expect(E.isRight(now.parameters.decode({}))).toBe(true);
    expect(E.isLeft(now.parameters.decode("now"))).toBe(true);
  });

  test("an explicit jsonSchema is sent as it is, even beside a codec outside the derivable set", () => {
    const DateFromString = new t.Type<Date, string, unknown>(
      "DateFromString",
      (u): u is Date => u instanceof Date,
      (u, c) => (typeof u === "string" ? t.success(new Date(u)) : t.failure(u, c)),
      (d) => d.toISOString(),
    );
    const jsonSchema = { type: "object", properties: { at: { type: "string", format: "date-time" } }, required: ["at"] };
    const remind = clientTool({ name: "remind", description: "Sets a reminder", parameters: t.type({ at: DateFromString }), jsonSchema, execute: noop });
    expect(remind.tool.parameters).toBe(jsonSchema);
  });

  test("the result encoder gives the JSON form of what execute returns", () => {
    const DateIso = new t.Type<Date, string, unknown>(
      "DateIso",
      (u): u is Date => u instanceof Date,
      (u, c) => t.failure(u, c),
      (d) => d.toISOString(),
    );
    const clock = clientTool({ name: "clock", description: "Now", result: DateIso, execute: () => new Date(0) });
    expect(clock.encodeResult(new Date(0))).toBe("1970-01-01T00:00:00.000Z");
    expect(getWeather.encodeResult({ city: "x", temperature: 1 })).toEqual({ city: "x", temperature: 1 });
  });

  test("a codec outside the derivable set is refused at construction, naming the tool, the codec and where it sits", () => {
    const error = refusal(() =>
      clientTool({
        name: "plan",
        description: "Plans",
        parameters: t.type({ steps: t.array(t.type({ pair: t.tuple([t.string, t.number]) })) }),
        execute: noop,
      }),
    );
    expect(error).toMatchObject({ code: "unsupported-codec", toolName: "plan", codec: "[string, number]", path: "/steps/*/pair" });
    expect(error.message).toMatch(/^tool "plan": cannot derive a JSON Schema for the codec "\[string, number\]" at \/steps\/\*\/pair/);
    expect(ClientToolError.isInstance(error.cause)).toBe(true);
  });

  test("parameters that do not describe an object are refused: a call's arguments are one", () => {
    const error = refusal(() => clientTool({ name: "echo", description: "Echoes", parameters: t.string, execute: noop }));
    expect(error.code).toBe("invalid-tool");
    expect(error.message).toBe(
      'tool "echo": expected parameters that describe a JSON object (a call\'s arguments are one: t.type, t.partial, t.strict, t.intersection of them, t.record), but the codec "string" describes {"type":"string"}',
    );
  });

  test("a union of objects is an object", () => {
    const locate = clientTool({
      name: "locate",
      description: "Finds a place",
      parameters: t.union([t.type({ city: t.string }), t.type({ lat: t.number, lon: t.number })]),
      execute: noop,
    });
    expect(locate.tool.parameters).toMatchObject({ type: "object", anyOf: [{ required: ["city"] }, { required: ["lat", "lon"] }] });
  });

  // Plain JavaScript callers can pass anything; each refusal says what was expected and what came.
  const untyped = (definition: Record<string, unknown>) => () => clientTool(definition as unknown as Parameters<typeof clientTool>[0]);
  test.each([
    ["an empty name", { name: "", description: "d", execute: noop }, 'expected a client tool\'s name to be a non-empty string, but got ""'],
    ["a missing description", { name: "x", execute: noop }, 'tool "x": expected description to be a string, but got undefined'],
    ["a missing execute", { name: "x", description: "d" }, 'tool "x": expected execute to be a function, but got undefined'],
    [
      "a JSON Schema as parameters",
      { name: "x", description: "d", parameters: { type: "object" }, execute: noop },
      'tool "x": expected parameters to be an io-ts codec, but got an object that is not a codec',
    ],
    [
      "a jsonSchema that is an array",
      { name: "x", description: "d", jsonSchema: [], execute: noop },
      'tool "x": expected jsonSchema to be a JSON Schema object, but got an array',
    ],
  ])("refuses %s", (_what, definition, message) => {
    const error = refusal(untyped(definition));
    expect(error.code).toBe("invalid-tool");
    expect(error.message).toBe(message);
  });
});

describe("resolveTools", () => {
  const getTime = clientTool({ name: "get_time", description: "The local time", execute: () => "12:00" });
  const openUrl = { name: "open_url", description: "Opens a page", parameters: { type: "object" } };

  test("keeps the order on the wire and indexes the client tools by name", () => {
    const { wire, client } = resolveTools([openUrl, getTime]);
    expect(wire).toEqual([openUrl, getTime.tool]);
    expect([...client]).toEqual([["get_time", getTime]]);
  });

  test("refuses two tools with one name, client or plain", () => {
    const error = refusal(() => resolveTools([getTime, { name: "get_time", description: "again" }]));
    expect(error).toMatchObject({ code: "invalid-tool", toolName: "get_time", message: 'expected tool names to be unique, but "get_time" is offered twice' });
  });
});
