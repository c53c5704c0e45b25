/** A store call's refusal, read as a value, for the memory store's tests. */
import { StoreError } from "../../../src/server/store/StoreError";

/** The StoreError `promise` rejects with, or `undefined` when it resolves; anything else it rejects with fails the test. */
export async function refusedOrNot(promise: Promise<unknown>): Promise<StoreError | undefined> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- only describes the unexpected value in the failure message
  if (error !== undefined && !StoreError.isInstance(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error;
}
