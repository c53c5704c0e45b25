/** `clientTool`: a tool the client executes, typed by an io-ts codec end to end (docs/tools.md#frontend-tools). */
import * as t from "io-ts";
import type { Tool } from "../../protocol/input";
import type { Message } from "../../protocol/messages";
import { ClientToolError } from "./ClientToolError";
import type { JsonSchema, JsonSchemaObject } from "./JsonSchema";
import { jsonSchemaOf } from "./jsonSchemaOf";

/**
 * What a tool may read of the session that runs it. `Session` satisfies it; tools depend on this
 * port rather than on the class.
 *
 * @example
 * const board = (session: ToolSession) => session.state;
 */
export interface ToolSession {
  readonly threadId: string;
  /** The conversation as it is now, the call's assistant message included. */
  readonly messages: readonly Message[];
  /** The state as JSON, as the events built it. */
  readonly rawState: unknown;
  /** The state decoded with the session's StateSpec (the JSON itself without one). */
  readonly state: unknown;
}

/**
 * The second argument of `execute`.
 *
 * @example
 * execute: async (args, { toolCallId, signal }) => fetch(`/lookup?call=${toolCallId}`, { signal }).then((r) => r.json())
 */
export interface ToolCallContext {
  /** The call being answered. */
  readonly toolCallId: string;
  /** Aborted when the exchange is unsubscribed (the Session stopped or the view went away); pass it on. */
  readonly signal: AbortSignal;
  /** The session the call belongs to. */
  readonly session: ToolSession;
}

/**
 * The definition `clientTool` takes. `execute` receives the arguments decoded by `parameters`
 * (`t.TypeOf` of it) and returns the result, or a promise of it.
 *
 * @example
 * const definition: ClientToolDefinition<typeof Args, string> = { name: "greet", description: "Greets", parameters: Args, execute: ({ who }) => `hi ${who}` };
 */
export interface ClientToolDefinition<C extends t.Mixed, R> {
  /** The tool's name, as the model calls it. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** The arguments' codec; `t.type({})` (no arguments) when absent. Its JSON Schema goes on the wire. */
  readonly parameters?: C | undefined;
  /** The JSON Schema to send instead of the derived one (for codecs outside the derivable set). */
  readonly jsonSchema?: JsonSchemaObject | undefined;
  /** Encodes what `execute` returns before it is JSON-encoded (a `Date` as an ISO string, say); the value as it is when absent. */
  readonly result?: t.Encoder<R, unknown> | undefined;
  /**
   * Runs the call. A throw or rejection becomes an error result; it never reaches the session.
   * `Promise<R>` is named before `PromiseLike<R>` so that an `async` execute returning the wrong
   * type is told "Type 'string' is not assignable to type 'Date'", not `then`'s signature.
   */
  readonly execute: (args: t.TypeOf<C>, context: ToolCallContext) => R | Promise<R> | PromiseLike<R>;
}

/**
 * A tool the client executes: its wire form (`tool`, offered in `RunAgentInput.tools`) and what
 * running a call needs. `A` is the decoded arguments, `R` what `execute` returns. A
 * `ClientTool<A, R>` is a `ClientTool` (the defaults), so tools of different types share a list.
 *
 * @example
 * const tools: readonly ClientTool[] = [getLocalTime, confirmDelete];
 */
export interface ClientTool<A = unknown, R = unknown> {
  readonly kind: "client-tool";
  readonly name: string;
  readonly description: string;
  /** What goes on the wire: name, description and the JSON Schema of the arguments. */
  readonly tool: Tool;
  /** Decodes a call's parsed arguments. */
  readonly parameters: t.Decoder<unknown, A>;
  execute(args: A, context: ToolCallContext): R | PromiseLike<R>;
  /** The result's JSON form (through the `result` encoder when one was given). */
  encodeResult(value: R): unknown;
}

/**
 * Makes a client tool. At construction it checks the definition and derives the arguments' JSON
 * Schema from `parameters` (`jsonSchemaOf`); a codec outside the derivable set throws a
 * `ClientToolError` (`unsupported-codec`) naming the codec and its path, unless `jsonSchema` is
 * given. The derived schema must describe an object (a call's arguments are one).
 *
 * @example
 * const getWeather = clientTool({
 *   name: "get_weather",
 *   description: "The weather in a city, from the browser's cache",
 *   parameters: t.type({ city: t.string }),
 *   execute: async ({ city }, { signal }) => (await fetch(`/weather/${city}`, { signal })).json(),
 * });
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `t.TypeC<{}>` is io-ts's codec with no props, the default when none are given
export function clientTool<C extends t.Mixed = t.TypeC<{}>, R = unknown>(definition: ClientToolDefinition<C, R>): ClientTool<t.TypeOf<C>, R> {
  const { name, description, execute, result } = definition;
  if (typeof name !== "string" || name === "") {
    throw invalid(`expected a client tool's name to be a non-empty string, but got ${JSON.stringify(name)}`, undefined);
  }
  if (typeof description !== "string") throw invalid(`tool "${name}": expected description to be a string, but got ${typeof description}`, name);
  if (typeof execute !== "function") throw invalid(`tool "${name}": expected execute to be a function, but got ${typeof execute}`, name);
  // Without `parameters`, C is its default `t.TypeC<{}>`, which is exactly the codec filled in here.
  const parameters: t.Decoder<unknown, t.TypeOf<C>> = definition.parameters ?? t.type({});
  if (!isCodec(parameters)) throw invalid(`tool "${name}": expected parameters to be an io-ts codec, but got ${describe(parameters)}`, name);
  const schema = definition.jsonSchema === undefined ? derivedSchema(name, parameters) : givenSchema(name, definition.jsonSchema);
  return Object.freeze({
    kind: "client-tool" as const,
    name,
    description,
    tool: { name, description, parameters: schema },
    parameters,
    execute,
    encodeResult: (value: R): unknown => (result === undefined ? value : result.encode(value)),
  });
}

/**
 * Whether `value` is a `ClientTool` (as opposed to a plain wire `Tool`).
 *
 * @example
 * const wire = tools.map((tool) => (isClientTool(tool) ? tool.tool : tool));
 */
export function isClientTool(value: unknown): value is ClientTool {
  if (typeof value !== "object" || value === null) return false;
  return "kind" in value && value.kind === "client-tool" && "execute" in value && typeof value.execute === "function";
}

function derivedSchema(name: string, parameters: t.Decoder<unknown, unknown>): JsonSchema {
  let schema: JsonSchema;
  try {
    schema = jsonSchemaOf(parameters);
  } catch (error) {
    if (!ClientToolError.isInstance(error)) throw error;
    throw new ClientToolError(`tool "${name}": ${error.message}`, { code: error.code, toolName: name, codec: error.codec, path: error.path, cause: error });
  }
  if (schema.type !== "object") {
    throw invalid(
      `tool "${name}": expected parameters that describe a JSON object (a call's arguments are one: ` +
        `t.type, t.partial, t.strict, t.intersection of them, t.record), but the codec "${parameters.name}" describes ${JSON.stringify(schema)}`,
      name,
    );
  }
  return schema;
}

/** A hand-written schema is sent as it is; only its being a JSON object is checked (plain JavaScript callers can pass anything). */
function givenSchema(name: string, schema: JsonSchemaObject): JsonSchemaObject {
  const value: unknown = schema;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(`tool "${name}": expected jsonSchema to be a JSON Schema object, but got ${describe(value)}`, name);
  }
  return schema;
}

function isCodec(value: unknown): value is t.Decoder<unknown, unknown> {
  if (typeof value !== "object" || value === null) return false;
  return "validate" in value && typeof value.validate === "function" && "decode" in value && typeof value.decode === "function";
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object that is not a codec" : typeof value;
}

function invalid(message: string, toolName: string | undefined): ClientToolError {
  return new ClientToolError(message, { code: "invalid-tool", toolName });
}
