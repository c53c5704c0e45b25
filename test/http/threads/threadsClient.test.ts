/**
 * The thread-list client and paginated history over real loopback HTTP (docs/threads.md#in-the-client):
 * `HttpThreadsTransport` and `threadList` against `createHandler` with a memory store and
 * `identify`, Sessions sending real runs; two lists of one principal stay in step through the
 * events stream, another principal sees none of it, and a long thread joins with a limit and pages back.
 */
import { filter, firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpThreadsTransport } from "../../../src/client/threads/HttpThreadsTransport";
import { threadList, type ThreadList } from "../../../src/client/threads/threadList";
import { ClientError } from "../../../src/thread/ClientError";
import { success, type Agent } from "../../../src/server/Agent";
import { closeAll, serveStored } from "../durable/support";

afterEach(closeAll);

/** Answers every user message with "echo: " and its text. */
const echo: Agent = {
  async run(ctx) {
    const last = ctx.messages[ctx.messages.length - 1];
    ctx.say(`echo: ${typeof last?.content === "string" ? last.content : ""}`);
    return success();
  },
};

/** The principal is the `X-User` header (a test's stand-in for a session cookie). */
const byHeader = (request: Request) => request.headers.get("x-user") ?? undefined;
const transportFor = (url: string, user: string) => new HttpThreadsTransport(url, { headers: { "X-User": user } });

/** Resolves when `list` shows a snapshot `ready` accepts (the list is live while waited on). */
const until = (list: ThreadList, ready: (ids: readonly string[]) => boolean) =>
  firstValueFrom(list.threads$.pipe(filter((threads) => ready(threads.map((thread) => thread.threadId)))));

test("a thread created in one list appears in another of the same principal, renamed and deleted there too; another principal sees nothing", async () => {
  const { url } = await serveStored(echo, { identify: byHeader });
  const first = threadList(transportFor(url, "ana"));
  const second = threadList(transportFor(url, "ana"));
  const stranger = threadList(transportFor(url, "bob"));
  const live = [first, second, stranger].map((list) => list.snapshot$.subscribe());
  try {
    await Promise.all([first, second, stranger].map((list) => until(list, (ids) => ids.length === 0)));
    const session = first.open("trip", { join: false });
    await lastValueFrom(session.send("Plan a weekend in Lisbon").pipe(toArray()));
    await until(second, (ids) => ids.includes("trip"));
    const row = second.getSnapshot().threads[0];
    expect(row).toMatchObject({ threadId: "trip", title: "Plan a weekend in Lisbon", running: false, archived: false });
    expect(row.lastMessage).toEqual({ role: "assistant", preview: "echo: Plan a weekend in Lisbon" });

    await second.rename("trip", "Lisbon, final plan");
    await firstValueFrom(first.threads$.pipe(filter((threads) => threads[0]?.title === "Lisbon, final plan")));

    expect(await second.remove("trip")).toBe(true);
    await until(first, (ids) => !ids.includes("trip"));
    expect(await first.remove("trip")).toBe(false); // already gone
    expect(stranger.getSnapshot().threads).toEqual([]);
    expect(stranger.getSnapshot().error).toBeUndefined();
  } finally {
    for (const subscription of live) subscription.unsubscribe();
  }
});

test("a list read page by page holds every thread once, in the server's order", async () => {
  const { url } = await serveStored(echo, { identify: byHeader });
  const transport = transportFor(url, "ana");
  for (const name of ["a", "b", "c", "d", "e"]) await lastValueFrom(new Session(transport, { threadId: name }).send(`about ${name}`).pipe(toArray()));
  const list = threadList(transport, { limit: 2 });
  while (list.getSnapshot().hasMore) await list.loadMore();
  expect(list.getSnapshot().threads.map((thread) => thread.threadId)).toEqual(["e", "d", "c", "b", "a"]);
  // ids that need percent-encoding reach their thread
  await lastValueFrom(new Session(transport, { threadId: "a/b c?" }).send("odd id").pipe(toArray()));
  expect((await list.rename("a/b c?", "Odd")).title).toBe("Odd");
});

test("a long thread joins with a limit and pages back to its start", async () => {
  const { url } = await serveStored(echo, { identify: byHeader });
  const transport = transportFor(url, "ana");
  const writer = new Session(transport, { threadId: "long" });
  for (let turn = 0; turn < 6; turn++) await lastValueFrom(writer.send(`turn ${turn}`).pipe(toArray()));
  const everything = writer.messages.map((message) => message.id);
  expect(everything.length).toBe(12);

  const reader = new Session(transport, { threadId: "long", historyLimit: 5 });
  await lastValueFrom(reader.connect().pipe(toArray()));
  expect(reader.messages.map((message) => message.id)).toEqual(everything.slice(-5));
  expect(reader.hasOlder).toBe(true);
  await reader.loadOlder();
  expect(reader.messages.map((message) => message.id)).toEqual(everything.slice(-10));
  await reader.loadOlder();
  expect(reader.messages.map((message) => message.id)).toEqual(everything);
  expect(reader.hasOlder).toBe(false);
  // a second join (as a snapshot-path reconnect) keeps the pages loaded in front
  await lastValueFrom(reader.connect().pipe(toArray()));
  expect(reader.messages.map((message) => message.id)).toEqual(everything);
});

test("errors name the status and the server's code and sentence", async () => {
  const withoutIdentify = await serveStored(echo);
  const list = threadList(new HttpThreadsTransport(withoutIdentify.url, { retry: false }));
  await expect(list.loadMore()).rejects.toMatchObject({ kind: "http", status: 404 });
  expect(list.getSnapshot().error).toBeInstanceOf(ClientError);

  const { url } = await serveStored(echo, { identify: byHeader });
  const anonymous = new HttpThreadsTransport(url, { retry: false });
  const refusal = await anonymous.listThreads().catch((error: unknown) => error);
  expect(refusal).toMatchObject({ kind: "http", status: 401, code: "unauthenticated" });
  expect((refusal as Error).message).toMatch(/^GET http:\/\/.+\/agent\/threads answered 401 unauthenticated: /);
  await expect(transportFor(url, "ana").updateThread("nope", { title: "x" })).rejects.toMatchObject({ status: 404, code: "not-found" });
  await expect(transportFor(url, "ana").history({ threadId: "nope", before: "m1", limit: 5 })).rejects.toMatchObject({ status: 404 });
});
