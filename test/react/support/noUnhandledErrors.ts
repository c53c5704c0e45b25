/**
 * Fails the test when RxJS reports an error nobody handled. RxJS throws such errors (one thrown
 * from an observer's callback, say) on a later timer rather than from `subscribe`, so a
 * `not.toThrow()` around the call cannot see them: here the timers are fake and flushed after
 * each test, and `config.onUnhandledError` collects what they report.
 */
import { config } from "rxjs";

export function failOnUnhandledRxErrors(): void {
  let unhandled: unknown[] = [];
  beforeEach(() => {
    unhandled = [];
    config.onUnhandledError = (error) => unhandled.push(error);
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.runOnlyPendingTimers();
    jest.useRealTimers();
    config.onUnhandledError = null;
    expect(unhandled).toEqual([]);
  });
}
