/**
 * The construction steps this library's error classes share (docs/packaging.md): the `cause` kept
 * as the standard `ErrorOptions`, and the defined details copied onto the instance, so an absent
 * detail stays absent rather than set to `undefined`.
 */

/**
 * The `ErrorOptions` to pass to `super`: `{ cause }` when the details carry one, else nothing.
 *
 * @example
 * super(message, causeOption(details));
 */
export function causeOption(details: { readonly cause?: unknown }): ErrorOptions | undefined {
  return details.cause === undefined ? undefined : { cause: details.cause };
}

/**
 * Copies each of `keys` that is defined in `details` onto `target` (an error being constructed),
 * in the order given; a key that is `undefined` in `details` is left alone.
 *
 * @example
 * copyDefined(this, details, ["threadId", "runId"]);
 */
export function copyDefined<D extends object, K extends keyof D>(target: { -readonly [P in K]?: D[P] }, details: D, keys: readonly K[]): void {
  for (const key of keys) {
    const value = details[key];
    if (value !== undefined) target[key] = value;
  }
}
