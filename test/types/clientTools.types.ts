// Type-level tests for client tools. Not run by jest: test/types/typecheck.test.ts compiles the
// whole project, so every line here must typecheck and every `@ts-expect-error` must hold.
import * as t from "io-ts";
import { clientTool, type ClientTool, type ToolCallContext, type ToolSession } from "../../src/client/tools/clientTool";
import { resolveTools } from "../../src/client/tools/resolveTools";
import type { ToolCallResult } from "../../src/client/tools/runToolCall";
import { withDefault } from "../../src/protocol/codec";
import { Session } from "../../src/client/Session";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import { callsOf, type RunningToolCall } from "../../src/client/tools/RunningToolCalls";
import { waitForResponse } from "../../src/client/tools/waitForResponse";
import { useClientTool } from "../../src/react/useClientTool";
import type { Tool } from "../../src/protocol/input";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T | undefined => undefined;

// `execute` receives t.TypeOf of the codec, inferred.
const getWeather = clientTool({
  name: "get_weather",
  description: "The weather in a city",
  parameters: t.type({ city: t.string, days: withDefault(t.Int, 1 as t.Int), unit: t.union([t.literal("c"), t.literal("f"), t.undefined]) }),
  execute: async (args, context) => {
    assertType<Equal<typeof args, { city: string; days: t.Int; unit: "c" | "f" | undefined }>>();
    assertType<Equal<typeof context, ToolCallContext>>();
    const id: string = context.toolCallId;
    const signal: AbortSignal = context.signal;
    const session: ToolSession = context.session;
    // @ts-expect-error no such argument
    void args.country;
    // @ts-expect-error the city is a string, not a number
    const n: number = args.city;
    void [id, signal, session, n];
    return { temperature: 21 };
  },
});
assertType<Equal<typeof getWeather, ClientTool<{ city: string; days: t.Int; unit: "c" | "f" | undefined }, { temperature: number }>>>();

// Without parameters, the arguments are an empty object.
const now = clientTool({
  name: "now",
  description: "The time",
  execute: (_args) => {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is what a codec with no props decodes to
    assertType<Equal<typeof _args, {}>>();
    return new Date().toISOString();
  },
});
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is what a codec with no props decodes to
assertType<Equal<typeof now, ClientTool<{}, string>>>();

// The result encoder must take what execute returns.
const DateIso = new t.Type<Date, string, unknown>(
  "DateIso",
  (u): u is Date => u instanceof Date,
  (u, c) => t.failure(u, c),
  (d) => d.toISOString(),
);
clientTool({ name: "clock", description: "Now", result: DateIso, execute: () => new Date() });
// @ts-expect-error execute returns a string, which the Date encoder cannot take
clientTool({ name: "clock", description: "Now", result: DateIso, execute: () => "noon" });

// `parameters` is a codec, not a JSON Schema (that is `jsonSchema`).
// @ts-expect-error a JSON Schema is not a codec
clientTool({ name: "x", description: "d", parameters: { type: "object" }, execute: () => 1 });
clientTool({ name: "x", description: "d", jsonSchema: { type: "object" }, execute: () => 1 });
// @ts-expect-error description is required
clientTool({ name: "x", execute: () => 1 });

// Tools of different argument and result types share one list, beside plain wire tools.
const tools: readonly (Tool | ClientTool)[] = [getWeather, now, { name: "open_url", description: "Opens a page" }];
const resolved = resolveTools(tools);
const wire: readonly Tool[] = resolved.wire;
const known: ClientTool | undefined = resolved.client.get("now");
void [wire, known];

// A typed tool's execute still refuses arguments of another shape.
// @ts-expect-error get_weather needs a city
void getWeather.execute({}, {} as ToolCallContext);

// Results narrow on `kind`.
export function describeResult(result: ToolCallResult): string {
  switch (result.kind) {
    case "success":
      return String(result.value);
    case "failed":
      return result.error.code;
    default: {
      const never: never = result;
      return never;
    }
  }
}

// ── The Session's tools and the views over running calls ──────────────────────────────────────

// A human-in-the-loop tool: `result` types what `respond` takes (R inferred through waitForResponse).
const confirmDelete = clientTool({
  name: "confirm_delete",
  description: "Asks the user",
  parameters: t.type({ id: t.number, title: t.string }),
  result: t.type({ confirmed: t.boolean }),
  execute: waitForResponse,
});
assertType<Equal<typeof confirmDelete, ClientTool<{ id: number; title: string }, { confirmed: boolean }>>>();

// Sessions take client tools and plain tools in one list, per session and per run.
const sessionWithTools = new Session(new ReplayTransport([]), {
  threadId: "t",
  tools: [confirmDelete, getWeather, { name: "open_url", description: "Opens a page" }],
});
void sessionWithTools.send("hi", { tools: [confirmDelete], maxToolRoundtrips: 2 });

// callsOf narrows by the tool: args and respond are typed.
const [pendingConfirm] = callsOf(sessionWithTools.runningToolCalls, confirmDelete);
if (pendingConfirm !== undefined) {
  assertType<Equal<typeof pendingConfirm, RunningToolCall<{ id: number; title: string }, { confirmed: boolean }>>>();
  const title: string = pendingConfirm.args.title;
  pendingConfirm.respond({ confirmed: true });
  // @ts-expect-error the answer is { confirmed: boolean }
  pendingConfirm.respond({ confirmed: "yes" });
  void title;
}
// By name, nothing is known.
const [byName] = callsOf(sessionWithTools.runningToolCalls, "confirm_delete");
if (byName !== undefined) assertType<Equal<typeof byName.args, unknown>>();

// useClientTool types its render the same way (not called: type-level only).
export const renderConfirm = () =>
  useClientTool(sessionWithTools, confirmDelete, (call) => {
    assertType<Equal<typeof call.args, { id: number; title: string }>>();
    // @ts-expect-error no such argument
    void call.args.name;
    call.respond({ confirmed: false });
    return null;
  });
