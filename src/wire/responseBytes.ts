/** A fetch `Response` body as an Observable of byte chunks, the one way the client transport and the conformance checker read a body (docs/wire.md#6.2). */
import { Observable } from "rxjs";

/**
 * Emits the body's chunks as they are read and completes at its end (at once for a body-less
 * response). A failed read errors with what `failure` makes of the cause; unsubscribing cancels
 * the reader, and a read that settles after that is ignored.
 *
 * @example
 * responseBytes(response, (cause) => new ClientError("transport", `reading the response failed: ${String(cause)}`, { cause })).pipe(decodeSse());
 */
export function responseBytes(response: Response, failure: (cause: unknown) => unknown): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    const body = response.body;
    if (body === null) {
      subscriber.complete();
      return undefined;
    }
    const reader = body.getReader();
    let stopped = false;
    const pump = async (): Promise<void> => {
      for (;;) {
        const { done, value } = await reader.read();
        if (stopped) return;
        if (done) {
          subscriber.complete();
          return;
        }
        subscriber.next(value);
      }
    };
    pump().catch((cause: unknown) => {
      if (!stopped) subscriber.error(failure(cause));
    });
    return () => {
      stopped = true;
      reader.cancel().catch(() => undefined);
    };
  });
}
