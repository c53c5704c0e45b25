/** Why a JSON Patch (RFC 6902) could not be applied. */
import { Brand } from "../protocol/Brand";
import type { JsonPatchOperation } from "../protocol/common";

/** The cross-copy brand (docs/packaging.md): every copy of the package marks its PatchErrors with the same key. */
const PATCH_ERROR = new Brand<PatchError>("agui-rx/PatchError");

/**
 * A failed patch: `index` is the position of the failing operation in the patch, `operation` the
 * operation itself, `path` the pointer it failed at (its `from` for a failing source of move/copy),
 * and `reason` what was expected and what was found. The message reads
 * `operation 2 (replace) failed: replace at /missing/deeply: no member "missing"`.
 *
 * @example
 * const result = applyPatch({}, [{ op: "remove", path: "/x" }]);
 * if (isLeft(result)) result.left.reason; // 'no member "x"'
 */
export class PatchError extends Error {
  override readonly name = "PatchError";
  static {
    PATCH_ERROR.mark(this);
  }

  /**
   * Whether `value` is a PatchError from any copy of this package (ESM and CJS builds are two
   * copies; `instanceof` sees only its own).
   *
   * @example
   * if (PatchError.isInstance(error)) console.log(error.path);
   */
  static isInstance(value: unknown): value is PatchError {
    return PATCH_ERROR.is(value);
  }

  constructor(
    readonly index: number,
    readonly operation: JsonPatchOperation,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`operation ${index} (${operation.op}) failed: ${operation.op} at ${path === "" ? '"" (the document)' : path}: ${reason}`);
  }
}
