/**
 * An io-ts codec as the AI SDK's tool `inputSchema`: the JSON Schema the model reads is derived
 * from the codec (`jsonSchemaOf`, the one client tools use), and what the model sends is decoded
 * by the same codec before `execute` sees it. So the example's server tool, like its client
 * tool, has its types from one codec, never written twice.
 */
import * as E from "fp-ts/Either";
import type * as t from "io-ts";
import { jsonSchema, type JSONSchema7, type Schema } from "ai";
import { jsonSchemaOf } from "../../src/client/tools/jsonSchemaOf";
import type { JsonSchema } from "../../src/client/tools/JsonSchema";
import { describeFailure, excerpt } from "../../src/protocol/describeFailure";

/**
 * The SDK schema of `codec`. A model's input that does not decode fails validation with a message
 * that names the member, what was expected and what arrived; the SDK reports that to the model as
 * the call's error (it may retry), and `execute` is not called.
 *
 * @example
 * const get_weather = tool({ inputSchema: ioTsSchema(t.type({ city: t.string })), execute: async ({ city }) => lookUp(city) });
 */
export function ioTsSchema<A>(codec: t.Decoder<unknown, A>): Schema<A> {
  return jsonSchema<A>(toJsonSchema7(jsonSchemaOf(codec)), {
    validate: (value) => {
      const decoded = codec.decode(value);
      if (E.isRight(decoded)) return { success: true, value: decoded.right };
      const failure = describeFailure(decoded.left);
      const where = failure.path === "" ? "the input" : `input${failure.path}`;
      return { success: false, error: new TypeError(`${where}: ${failure.expected}, but got ${excerpt(failure.actual)}`) };
    },
  });
}

/**
 * The derived schema in the SDK's JSON Schema type (mutable arrays where ours are readonly).
 * `default` is left out: it is a hint for the model only, and the codec's `withDefault` fills the
 * value in when it decodes anyway.
 */
function toJsonSchema7(schema: JsonSchema): JSONSchema7 {
  const out: JSONSchema7 = {};
  if (schema.type !== undefined) out.type = typeof schema.type === "string" ? schema.type : [...schema.type];
  if (schema.enum !== undefined) out.enum = [...schema.enum];
  if (schema.properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, member]) => [key, toJsonSchema7(member)]));
  }
  if (schema.required !== undefined) out.required = [...schema.required];
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties = typeof schema.additionalProperties === "boolean" ? schema.additionalProperties : toJsonSchema7(schema.additionalProperties);
  }
  if (schema.items !== undefined) out.items = toJsonSchema7(schema.items);
  if (schema.anyOf !== undefined) out.anyOf = schema.anyOf.map(toJsonSchema7);
  if (schema.allOf !== undefined) out.allOf = schema.allOf.map(toJsonSchema7);
  if (schema.minimum !== undefined) out.minimum = schema.minimum;
  return out;
}
