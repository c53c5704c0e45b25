/** `operate` and `SourceObserver`: the one operator idiom (src/rx/operate.ts), checked against RxJS's own operators' contract. */
import { Observable, take, type OperatorFunction } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { operate, SourceObserver } from "../../src/rx/operate";

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** Doubles each value; a 0 throws from the handler, a thrown value the test can recognise. */
function doubleOrThrow(): OperatorFunction<number, number> {
  return operate<number, number>((source, subscriber) => {
    source.subscribe(
      new SourceObserver(subscriber, {
        next(n) {
          if (n === 0) throw new Error("zero");
          subscriber.next(n * 2);
        },
      }),
    );
  });
}

const values = { a: 1, b: 2, z: 0, A: 2, B: 4 };

describe("operate + SourceObserver (marbles)", () => {
  test("values, completion and the source's subscription pass through", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-|", values);
      expectObservable(source.pipe(doubleOrThrow())).toBe("-A-B-|", values);
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
  });

  test("the source's error passes through by default and ends the subscription there", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-#", values, new Error("upstream"));
      expectObservable(source.pipe(doubleOrThrow())).toBe("-A-#", values, new Error("upstream"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  test("a throw in the next handler errors the output and unsubscribes the source at once", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-z-b-|", values);
      expectObservable(source.pipe(doubleOrThrow())).toBe("-A-#", values, new Error("zero"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  test("unsubscribing the output unsubscribes the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-a-|", values);
      expectObservable(source.pipe(doubleOrThrow()), "^--!").toBe("-A-", values);
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  test("throws in the error and complete handlers error the output", () => {
    const failing = (on: "error" | "complete"): OperatorFunction<number, number> =>
      operate<number, number>((source, subscriber) => {
        source.subscribe(
          new SourceObserver(subscriber, {
            next: (n) => subscriber.next(n),
            error:
              on === "error"
                ? () => {
                    throw new Error("in error");
                  }
                : (error) => subscriber.error(error),
            complete:
              on === "complete"
                ? () => {
                    throw new Error("in complete");
                  }
                : () => subscriber.complete(),
          }),
        );
      });
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-a-#", values).pipe(failing("error"))).toBe("-a-#", values, new Error("in error"));
      expectObservable(cold("-a-|", values).pipe(failing("complete"))).toBe("-a-#", values, new Error("in complete"));
    });
  });

  test("a throw from the body errors the output", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-|", values);
      const broken = operate<number, number>(() => {
        throw new Error("body");
      });
      expectObservable(source.pipe(broken)).toBe("#", undefined, new Error("body"));
      expectSubscriptions(source.subscriptions).toBe([]);
    });
  });
});

describe("operate + SourceObserver (synchronous sources and teardown)", () => {
  test("a synchronous source stops the moment the output is unsubscribed", () => {
    let emitted = 0;
    let tornDown = false;
    const counting = new Observable<number>((subscriber) => {
      for (let n = 1; n <= 10 && !subscriber.closed; n++) {
        emitted++;
        subscriber.next(n);
      }
      subscriber.complete();
      return () => {
        tornDown = true;
      };
    });
    const seen: number[] = [];
    counting.pipe(doubleOrThrow(), take(2)).subscribe((n) => seen.push(n));
    expect(seen).toEqual([2, 4]);
    expect(emitted).toBe(2);
    expect(tornDown).toBe(true);
  });

  test("nothing reaches a handler after the output closed, and the source's teardown runs before the body's", () => {
    const order: string[] = [];
    let push: ((n: number) => void) | undefined;
    const source = new Observable<number>((subscriber) => {
      push = (n) => subscriber.next(n);
      return () => order.push("source teardown");
    });
    const op = operate<number, number>((input, subscriber) => {
      input.subscribe(new SourceObserver(subscriber, { next: (n) => order.push(`next ${n}`) }));
      return () => order.push("body teardown");
    });
    const subscription = source.pipe(op).subscribe();
    push?.(1);
    subscription.unsubscribe();
    push?.(2);
    expect(order).toEqual(["next 1", "source teardown", "body teardown"]);
  });

  test("each subscription runs the body afresh", () => {
    let bodies = 0;
    const counted = operate<number, number>((source, subscriber) => {
      bodies++;
      let total = 0;
      source.subscribe(new SourceObserver(subscriber, { next: (n) => subscriber.next((total += n)) }));
    });
    scheduler().run(({ cold, expectObservable }) => {
      const shared = cold("-a-b-|", values).pipe(counted);
      expectObservable(shared).toBe("-a-x-|", { a: 1, x: 3 });
      expectObservable(shared).toBe("-a-x-|", { a: 1, x: 3 });
    });
    expect(bodies).toBe(2);
  });
});
