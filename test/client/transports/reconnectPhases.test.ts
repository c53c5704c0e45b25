/** reconnecting's phases that the HTTP suites do not reach: a connection that fails after the run's terminal event. */
import { lastValueFrom, NEVER, Observable, toArray } from "rxjs";
import { ev } from "../../../src/protocol/build";
import type { ConnectionNotice } from "../../../src/client/transports/ConnectionNotice";
import { StreamOpened, type StreamItem } from "../../../src/client/transports/fetchEventStream";
import { reconnecting, type ReconnectPlan } from "../../../src/client/transports/reconnecting";

function planFor(first: () => Observable<StreamItem | ConnectionNotice>): ReconnectPlan {
  return { first, again: () => NEVER, resumable: async () => false, learned: () => undefined, runId: "r1", config: {}, notices: false };
}

test("a connection that ends after the run's terminal event completes the output (the ending phase), without asking whether the server resumes", async () => {
  let asked = 0;
  const plan: ReconnectPlan = {
    ...planFor(
      () =>
        new Observable<StreamItem>((subscriber) => {
          subscriber.next(new StreamOpened(undefined, false));
          subscriber.next(ev.runStarted("t", "r1"));
          subscriber.next(ev.runFinished("t", "r1"));
          subscriber.error(new Error("the socket closed after the last frame"));
        }),
    ),
    resumable: async () => (asked++, true),
  };
  const out = await lastValueFrom(reconnecting(plan).pipe(toArray()));
  expect(out.map((item) => ("type" in item ? item.type : item))).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
  expect(asked).toBe(0);
});
