/**
 * The discriminated-union codec of the protocol: one member codec per tag value, looked up in O(1),
 * with an error that names an unknown tag instead of listing every member's failure.
 */
import * as t from "io-ts";
import { isPlainObject } from "./struct";
import { RecognisingType, unrecognised } from "./unrecognised";

/** The decoded type of a tagged union built from a record of member codecs. */
export type TaggedUnionType<M extends Record<string, t.Mixed>> = { [K in keyof M]: t.TypeOf<M[K]> }[keyof M];

/** A tagged union codec that also exposes its members by tag. */
export interface TaggedUnionCodec<M extends Record<string, t.Mixed>> extends t.Type<TaggedUnionType<M>, unknown, unknown> {
  readonly tag: string;
  readonly members: M;
}

/** Options of `taggedUnion`. */
export interface TaggedUnionOptions {
  /**
   * What an unknown tag (a string naming no member) is: `unrecognised` (the default, 1.1) leaves
   * it to the container to strip; `error` fails, naming the tag (the event union: an unknown event
   * type fails the run, docs/seeds.md#seed-001).
   */
  readonly unknownTag?: "unrecognised" | "error";
}

/**
 * A union discriminated by the string member `tag`; `members` maps each tag value to its codec.
 * Decoding looks the codec up by tag. An unknown tag is unrecognised material (or, with
 * `unknownTag: "error"`, a failure whose message quotes it); a missing or non-string tag fails.
 *
 * @example
 * const Part = taggedUnion("Part", "type", { text: TextPart, image: ImagePart });
 */
export function taggedUnion<M extends Record<string, t.Mixed>>(name: string, tag: string, members: M, options: TaggedUnionOptions = {}): TaggedUnionCodec<M> {
  const has = (value: unknown): value is keyof M & string => typeof value === "string" && Object.prototype.hasOwnProperty.call(members, value);
  const codec = new RecognisingType<TaggedUnionType<M>, unknown, unknown>(
    name,
    (u): u is TaggedUnionType<M> => isPlainObject(u) && has(u[tag]) && members[u[tag]].is(u),
    (u, context) => {
      if (!isPlainObject(u)) return t.failure(u, context, `expected ${name} (a JSON object with a "${tag}")`);
      const value = u[tag];
      if (!has(value)) {
        const known = Object.keys(members).join(", ");
        const tagContext = t.appendContext(context, tag, t.never, value);
        if (typeof value === "string" && options.unknownTag !== "error") {
          return unrecognised(tagContext, `unknown ${tag} ${JSON.stringify(value)} (${name} is one of ${known})`);
        }
        const what = typeof value === "string" ? `unknown ${tag} "${value}"` : `missing or non-string "${tag}"`;
        return t.failure(value, tagContext, `${name}: ${what} (expected one of ${known})`);
      }
      return members[value].validate(u, context);
    },
    (a) => members[(a as Record<string, string>)[tag]].encode(a),
  );
  return Object.assign(codec, { tag, members });
}
