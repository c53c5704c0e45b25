/** `afterAnswer` (src/rx/afterAnswer.ts): a stream chosen by a question's first answer, in marbles. */
import { EMPTY, Observable, of, Subscriber, switchMap, take } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { afterAnswer } from "../../src/rx/afterAnswer";

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

const answers = { t: true, f: false };

describe("afterAnswer", () => {
  test("subscribes to the stream the first answer picks, and ends with it", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const question = cold("--t|", answers);
      const yes = cold("-a-b|");
      const no = cold("-x|");
      expectObservable(
        afterAnswer(
          () => question,
          (answer) => (answer ? yes : no),
        ),
      ).toBe("---a-b|");
      expectSubscriptions(question.subscriptions).toBe("^--!");
      expectSubscriptions(yes.subscriptions).toBe("--^---!");
      expectSubscriptions(no.subscriptions).toBe([]);
    });
  });

  test("emits what defer(ask).pipe(take(1), switchMap(then)) emits, at the same frames", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const question = cold("-f-t-|", answers);
      const then = (answer: boolean) => (answer ? cold("a|") : cold("-x-y-#", undefined, new Error("chosen")));
      expectObservable(afterAnswer(() => question, then)).toEqual(question.pipe(take(1), switchMap(then)));
    });
  });

  test("ignores answers after the first: the chosen stream is not replaced", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const question = cold("-t-f-t|", answers);
      const yes = cold("---a---b|");
      const no = cold("x|");
      expectObservable(
        afterAnswer(
          () => question,
          (answer) => (answer ? yes : no),
        ),
      ).toBe("----a---b|");
      expectSubscriptions(yes.subscriptions).toBe("-^-------!");
      expectSubscriptions(no.subscriptions).toBe([]);
    });
  });

  test("a question that errors before it answers errors the output; one that completes without answering completes it", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const never = () => cold("a|");
      expectObservable(afterAnswer(() => cold<boolean>("--#", undefined, new Error("asked")), never)).toBe("--#", undefined, new Error("asked"));
      expectObservable(afterAnswer(() => cold<boolean>("---|"), never)).toBe("---|");
    });
  });

  test("a question's error after it answered does not end the chosen stream", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const question = cold("-t-#", answers, new Error("late"));
      expectObservable(
        afterAnswer(
          () => question,
          () => cold("---a|"),
        ),
      ).toBe("----a|");
    });
  });

  test("a throw from ask or from then errors the output", () => {
    const thrown = new Error("thrown");
    const seen: unknown[] = [];
    afterAnswer(
      () => {
        throw thrown;
      },
      () => EMPTY,
    ).subscribe({ error: (error: unknown) => seen.push(error) });
    afterAnswer(
      () => of(true),
      () => {
        throw thrown;
      },
    ).subscribe({ error: (error: unknown) => seen.push(error) });
    expect(seen).toEqual([thrown, thrown]);
  });

  test("unsubscribing the output unsubscribes the question and the chosen stream", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const question = cold("-t---|", answers);
      const chosen = cold("-a-b-c|");
      expectObservable(
        afterAnswer(
          () => question,
          () => chosen,
        ),
        "^---!",
      ).toBe("--a-");
      expectSubscriptions(question.subscriptions).toBe("^---!");
      expectSubscriptions(chosen.subscriptions).toBe("-^--!");
    });
  });

  test("the chosen stream is subscribed with the output's own subscriber: no subscriber of its own stands between them", () => {
    const seen: Subscriber<string>[] = [];
    const chosen = new Observable<string>((subscriber) => {
      seen.push(subscriber);
      subscriber.next("a");
    });
    const chained: Subscriber<string>[] = [];
    new Observable<string>((subscriber) => {
      chained.push(subscriber);
      return afterAnswer(
        () => of(true),
        () => chosen,
      ).subscribe(subscriber);
    }).subscribe();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(chained[0]);
  });
});
