/**
 * `Either` and its four helpers as the library uses them, written out here so that a browser bundle of
 * the client does not inline fp-ts's CommonJS `Either` module and everything it requires (about 27 kB
 * minified; docs/packaging.md#the-size-gate). The values have fp-ts's own shape (`{ _tag: "Left", left }`,
 * `{ _tag: "Right", right }`), so they mix freely with what an io-ts codec's `decode` returns and with
 * fp-ts's own functions.
 */
import type { Either, Left, Right } from "fp-ts/Either";

export type { Either };

/**
 * A failed result carrying `e`.
 *
 * @example
 * left("no such path"); // { _tag: "Left", left: "no such path" }
 */
export function left<E, A = never>(e: E): Either<E, A> {
  return { _tag: "Left", left: e };
}

/**
 * A successful result carrying `a`.
 *
 * @example
 * right(42); // { _tag: "Right", right: 42 }
 */
export function right<A, E = never>(a: A): Either<E, A> {
  return { _tag: "Right", right: a };
}

/**
 * Whether `ma` is a failure (narrows it to `Left`).
 *
 * @example
 * isLeft(left("x")); // true
 */
export function isLeft<E, A>(ma: Either<E, A>): ma is Left<E> {
  return ma._tag === "Left";
}

/**
 * Whether `ma` is a success (narrows it to `Right`).
 *
 * @example
 * isRight(right(1)); // true
 */
export function isRight<E, A>(ma: Either<E, A>): ma is Right<A> {
  return ma._tag === "Right";
}
