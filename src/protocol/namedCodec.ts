/**
 * The named faces of the protocol codecs (docs/architecture.md#protocol-layer "How the public types
 * are named"): the types that let a codec decode a named interface, so editors and errors show
 * `RunStartedEvent` rather than the codec's generics.
 */
import type * as t from "io-ts";

// A codec's own type spells out its members' codecs (`StructCodec<{ type: LiteralC<"RUN_STARTED"> } & …>`),
// and so does `t.TypeOf` of it until the type has a name. Each protocol type is therefore declared
// in three steps, types still written once:
//
//   const PointCodec = struct("Point", { x: t.number, y: t.number }, {});  // the codec as built
//   export interface Point extends t.TypeOf<typeof PointCodec> {}          // its type, named
//   export const Point: NamedStructCodec<Point> = PointCodec;              // the same codec, decoding `Point`
//
// The last line changes a type only. `t.Type` is invariant in what it decodes (it both returns and
// encodes it), so the assignment compiles only when the interface is exactly the codec's type: no
// cast, and a wrong or incomplete name is a compile error.

/**
 * The face of a struct codec that decodes the named interface `A`: hovers and errors show `A`, and
 * the declared members stay readable at runtime (the decoders and the client tools' JSON Schema
 * derivation read them). Assign the struct codec to it unchanged (see the comment above).
 *
 * @example
 * const PointCodec = struct("Point", { x: t.number, y: t.number }, {});
 * export interface Point extends t.TypeOf<typeof PointCodec> {}
 * export const Point: NamedStructCodec<Point> = PointCodec;
 * Point.decode({ x: 1, y: 2 }); // Validation<Point>
 */
export interface NamedStructCodec<A> extends t.Type<A, unknown, unknown> {
  readonly required: t.Props;
  readonly optional: t.Props;
  /** Whether members besides the declared ones are kept (`open`) rather than stripped. */
  readonly open: boolean;
}

/**
 * The face of a tagged union codec that decodes the named union `A` (a union of named interfaces);
 * its members stay readable by tag. Assign the `taggedUnion` codec to it unchanged: the compiler
 * checks that `A` is exactly the union of the members' types.
 *
 * @example
 * export type Shape = Circle | Square;
 * const ShapeCodec = taggedUnion("Shape", "kind", { circle: Circle, square: Square });
 * export const Shape: NamedUnionCodec<Shape> = ShapeCodec;
 */
export interface NamedUnionCodec<A> extends t.Type<A, unknown, unknown> {
  readonly tag: string;
  readonly members: Readonly<Record<string, t.Mixed>>;
}
