/**
 * How a Session follows its thread's events (docs/client.md#branches), over real HTTP: a handler
 * without `identify` has no such route (404), which stops following for good; close() lets go of
 * an open stream.
 */
import { Observable, finalize } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { ThreadNotice } from "../../../src/client/transports/Transport";
import { ClientError } from "../../../src/thread/ClientError";
import { closeAll } from "../../http/durable/support";
import { as } from "../../http/threads/support";
import { counter } from "../support";
import { run, serveBranches } from "./support";

afterEach(closeAll);

/** An HttpTransport that records each followed stream and how it ended. */
class RecordingTransport extends HttpTransport {
  readonly follows: { ended?: unknown }[] = [];
  private ended: (() => void)[] = [];
  override followThread(threadId: string): Observable<ThreadNotice> {
    const record: { ended?: unknown } = {};
    this.follows.push(record);
    return new Observable<ThreadNotice>((subscriber) =>
      super
        .followThread(threadId)
        .pipe(finalize(() => this.ended.splice(0).forEach((resolve) => resolve())))
        .subscribe({
          next: (notice) => subscriber.next(notice),
          error: (error: unknown) => {
            record.ended = error;
            subscriber.error(error);
          },
          complete: () => subscriber.complete(),
        }),
    );
  }
  /** Resolves when a followed stream has ended (refused, or let go). */
  untilEnded(): Promise<void> {
    return new Promise((resolve) => this.ended.push(resolve));
  }
}

test("a handler without identify has no thread events: the 404 stops following, and a later connect does not ask again", async () => {
  const { url } = await serveBranches({ identify: false });
  const transport = new RecordingTransport(url);
  const session = new Session(transport, { threadId: "t", newId: counter("m") });
  try {
    await run(session.send("first"));
    const ended = transport.untilEnded();
    await run(session.connect());
    await ended;
    expect(transport.follows).toHaveLength(1);
    expect(ClientError.isInstance(transport.follows[0].ended) && transport.follows[0].ended.status).toBe(404);
    expect(session.following).toBe(false);
    await run(session.connect());
    // a follow would start once the (cached) capabilities answer: let that happen before counting
    await transport.serverOwnsHistory();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(transport.follows).toHaveLength(1);
  } finally {
    session.close();
  }
});

test("close() lets go of the open stream; a later connect follows again", async () => {
  const { url } = await serveBranches();
  const transport = new RecordingTransport(url, { headers: as("alice") });
  const session = new Session(transport, { threadId: "t", newId: counter("m") });
  try {
    await run(session.send("first"));
    await run(session.connect());
    await untilFollowing(session);
    const ended = transport.untilEnded();
    session.close();
    await ended;
    expect(session.following).toBe(false);
    expect(transport.follows[0].ended).toBeUndefined(); // let go, not refused
    await run(session.connect());
    await untilFollowing(session);
    expect(transport.follows).toHaveLength(2);
  } finally {
    session.close();
  }
});

/** Waits (a turn of the event loop at a time) until the session's stream answered. */
async function untilFollowing(session: Session): Promise<void> {
  while (!session.following) await new Promise<void>((resolve) => setImmediate(resolve));
}
