/** The part of JSON Schema that `jsonSchemaOf` emits (docs/tools.md § schema derivation): keywords common to draft-07 and 2020-12. */

/**
 * A JSON Schema `type` name.
 *
 * @example
 * const type: JsonSchemaType = "integer";
 */
export type JsonSchemaType = "string" | "number" | "integer" | "boolean" | "null" | "object" | "array";

/**
 * A JSON Schema as derived from an io-ts codec: only keywords that draft-07, 2020-12 and the model
 * providers' function-calling subsets all read, so the schema can go to any of them as it is.
 *
 * @example
 * const schema: JsonSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
 */
export interface JsonSchema {
  readonly type?: JsonSchemaType | readonly JsonSchemaType[] | undefined;
  readonly enum?: readonly (string | number | boolean | null)[] | undefined;
  readonly properties?: { readonly [key: string]: JsonSchema } | undefined;
  readonly required?: readonly string[] | undefined;
  readonly additionalProperties?: boolean | JsonSchema | undefined;
  readonly items?: JsonSchema | undefined;
  readonly anyOf?: readonly JsonSchema[] | undefined;
  readonly allOf?: readonly JsonSchema[] | undefined;
  readonly minimum?: number | undefined;
  readonly default?: unknown;
}

/**
 * A JSON Schema given by hand (`clientTool({ jsonSchema })`): any JSON object, sent as it is.
 *
 * @example
 * const schema: JsonSchemaObject = { type: "object", properties: { when: { type: "string", format: "date-time" } } };
 */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };
