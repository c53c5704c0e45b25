/**
 * `retryUnanswered` on virtual time (issue #20 A3): what it tries again, how long it waits (the
 * backoff, the server's Retry-After and its cap), what it says when the attempts are used up, the
 * notices, per-subscription state, and letting a synchronous source go.
 */
import { Observable, of, take, throwError } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { ClientError } from "../../../src/thread/ClientError";
import { MAX_RETRY_AFTER_MS, provesNothingStarted, worthAnotherTry } from "../../../src/client/transports/requestFailure";
import { retryUnanswered, type RetryRule } from "../../../src/client/transports/retryUnanswered";

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

const storeDown = (retryAfterMs?: number) =>
  new ClientError("http", "POST /agent answered 503 Service Unavailable", {
    status: 503,
    body: JSON.stringify({ error: "unavailable", message: "the store is down" }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
const refused = new ClientError("transport", "POST /agent failed: fetch failed (connect ECONNREFUSED)", { code: "refused" });
const reset = new ClientError("transport", "POST /agent failed: fetch failed (other side closed)");

function rule(overrides: Partial<RetryRule<string>> = {}): RetryRule<string> {
  return { retryable: provesNothingStarted, config: { count: 2 }, scheduler: undefined, what: "POST /agent", ...overrides };
}

describe("retryUnanswered", () => {
  test("a 503 with the store's refusal is tried again after its Retry-After (longer than the backoff), then fails saying how many tries were made", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-#", undefined, storeDown(1000));
      const output = source.pipe(retryUnanswered(rule()));
      const usedUp = new ClientError(
        "http",
        "POST /agent was tried 3 times without an answer to go on with; the last: POST /agent answered 503 Service Unavailable",
        { status: 503 },
      );
      expectObservable(output).toBe("- 1000ms - 1000ms -#", undefined, usedUp);
      expectSubscriptions(source.subscriptions).toBe(["^!", "1001ms ^!", "2002ms ^!"]);
    });
  });

  test("the error after the attempts keeps what a caller reads: kind, status, body, Retry-After, and the last failure as cause", () => {
    let last: unknown;
    throwError(() => storeDown(5))
      .pipe(retryUnanswered(rule({ config: { count: 1, delay: () => of(0) } })))
      .subscribe({ error: (error: unknown) => (last = error) });
    expect(
      ClientError.isInstance(last) && { kind: last.kind, status: last.status, body: last.body, retryAfterMs: last.retryAfterMs, cause: last.cause },
    ).toEqual({
      kind: "http",
      status: 503,
      body: storeDown().body,
      retryAfterMs: 5,
      cause: storeDown(5),
    });
  });

  test("a network failure without a code says `unanswered` once its attempts are used up", () => {
    let last: unknown;
    throwError(() => reset)
      .pipe(retryUnanswered(rule({ retryable: worthAnotherTry, config: { count: 2, delay: () => of(0) } })))
      .subscribe({ error: (error: unknown) => (last = error) });
    expect(ClientError.isInstance(last) && { kind: last.kind, code: last.code, message: last.message }).toEqual({
      kind: "transport",
      code: "unanswered",
      message: `POST /agent was tried 3 times without an answer to go on with; the last: ${reset.message}`,
    });
  });

  test("a Retry-After longer than MAX_RETRY_AFTER_MS is waited only that long", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("#", undefined, storeDown(10 * 60_000));
      const usedUp = new ClientError(
        "http",
        "POST /agent was tried 2 times without an answer to go on with; the last: POST /agent answered 503 Service Unavailable",
      );
      expectObservable(source.pipe(retryUnanswered(rule({ config: { count: 1 } })))).toBe(`${MAX_RETRY_AFTER_MS}ms #`, undefined, usedUp);
      expectSubscriptions(source.subscriptions).toBe(["(^!)", `${MAX_RETRY_AFTER_MS}ms (^!)`]);
    });
  });

  test("a refused connection is tried again with the reconnect's backoff (500 ms × 2^(n−1), jittered into [½, 1))", () => {
    const random = jest.spyOn(Math, "random").mockReturnValue(0); // the shortest jitter: ½ of the backoff
    try {
      scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold("#", undefined, refused);
        const usedUp = new ClientError("transport", `POST /agent was tried 3 times without an answer to go on with; the last: ${refused.message}`);
        expectObservable(source.pipe(retryUnanswered(rule({ config: { count: 2 } })))).toBe("750ms #", undefined, usedUp);
        expectSubscriptions(source.subscriptions).toBe(["(^!)", "250ms (^!)", "750ms (^!)"]);
      });
    } finally {
      random.mockRestore();
    }
  });

  test("a failure that does not prove nothing started (a reset, a 500, a 409, a 503 without the store's JSON) is not tried again", () => {
    const notRetried = [
      reset,
      new ClientError("http", "500", { status: 500, body: "{}" }),
      new ClientError("http", "409", { status: 409, body: JSON.stringify({ error: "run-active", message: "busy" }) }),
      new ClientError("http", "503", { status: 503, body: "<html>proxy</html>", retryAfterMs: 1000 }),
    ];
    for (const error of notRetried) {
      scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold("-#", undefined, error);
        expectObservable(source.pipe(retryUnanswered(rule()))).toBe("-#", undefined, error);
        expectSubscriptions(source.subscriptions).toBe("^!");
      });
    }
  });

  test("nothing is tried again after the answer: a failure after it passes at once", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a-#", { a: "opened" }, refused);
      expectObservable(source.pipe(retryUnanswered(rule({ answered: (item) => item === "opened" })))).toBe("a-#", { a: "opened" }, refused);
      expectSubscriptions(source.subscriptions).toBe("^-!");
    });
  });

  test("notices: reconnecting before each attempt, connected with the answer that came after attempts", () => {
    scheduler().run(({ expectObservable }) => {
      let calls = 0;
      const source = new Observable<string>((subscriber) => {
        calls++;
        if (calls < 3) subscriber.error(refused);
        else subscriber.next("opened");
      });
      const output = source.pipe(
        retryUnanswered(rule({ config: { count: 5, delay: 10 }, answered: (item) => item === "opened", notice: (status, attempt) => `${status} ${attempt}` })),
      );
      expectObservable(output).toBe("r 9ms s 9ms (tc)", { r: "reconnecting 1", s: "reconnecting 2", t: "connected 2", c: "opened" });
    });
  });

  test("idempotent requests are tried again after any 503 and any network failure, never after an abort", () => {
    expect(worthAnotherTry(new ClientError("http", "503", { status: 503, body: "<html>" }))).toBe(true);
    expect(worthAnotherTry(reset)).toBe(true);
    expect(worthAnotherTry(new ClientError("transport", "aborted", { code: "abort" }))).toBe(false);
    expect(worthAnotherTry(new ClientError("http", "500", { status: 500 }))).toBe(false);
  });

  test("each subscription has its own attempts", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("#", undefined, refused);
      const output = source.pipe(retryUnanswered(rule({ config: { count: 1, delay: 5 } })));
      const usedUp = new ClientError("transport", `POST /agent was tried 2 times without an answer to go on with; the last: ${refused.message}`);
      expectObservable(output).toBe("5ms #", undefined, usedUp);
      expectObservable(output, "3ms ^").toBe("3ms 5ms #", undefined, usedUp);
    });
  });

  test("stops listening to a synchronous source when unsubscribed", () => {
    let emitted = 0;
    const source = new Observable<string>((subscriber) => {
      for (let i = 0; i < 10 && !subscriber.closed; i++) {
        emitted++;
        subscriber.next(`item ${i}`);
      }
    });
    const seen: string[] = [];
    source.pipe(retryUnanswered(rule()), take(2)).subscribe((item) => seen.push(item));
    expect(seen).toEqual(["item 0", "item 1"]);
    expect(emitted).toBe(2);
  });
});
