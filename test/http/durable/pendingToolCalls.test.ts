/**
 * Pending client tools survive a reload (docs/threads.md#pending-client-tools), over real HTTP with the
 * memory store: a Session dropped while the run's client tool call waits leaves it pending in the
 * thread; a fresh Session's connect() takes it up (executes it, sends the follow-up with the
 * result); and of two pages that both take it up, the first answer recorded wins while the other
 * yields without an error and follows the winner's run.
 */
import * as t from "io-ts";
import { filter, firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { clientTool } from "../../../src/client/tools/clientTool";
import { waitForResponse } from "../../../src/client/tools/waitForResponse";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Message } from "../../../src/protocol/messages";
import type { Agent } from "../../../src/server/Agent";
import type { Update } from "../../../src/thread/Update";
import { counter, errorsOf } from "../../client/support";
import { closeAll, gate, serveStored, until } from "./support";

afterEach(closeAll);

const confirmDelete = clientTool({
  name: "confirm_delete",
  description: "Asks the user on a card whether to delete the task",
  parameters: t.type({ id: t.number }),
  result: t.type({ confirmed: t.boolean }),
  execute: waitForResponse,
});

/**
 * Asks `confirm_delete` for task 7 when the user asks, and says what the answer was when a tool
 * result comes back; `answered` is awaited before that answer (a follow-up that stays live).
 */
function confirmingAgent(seen: { readonly results: Message[][] }, answered: Promise<void> = Promise.resolve()): Agent {
  return {
    async run(ctx) {
      const last = ctx.messages[ctx.messages.length - 1];
      if (last?.role !== "tool") {
        const intro = ctx.say("Let me ask you first.");
        ctx.toolCall("confirm_delete", { parentMessageId: intro }).argsJson({ id: 7 }).end();
        return;
      }
      seen.results.push(ctx.messages.filter((message) => message.role === "tool"));
      await answered;
      ctx.say(last.content === '{"confirmed":true}' ? "Deleted task 7." : "Kept task 7.");
    },
  };
}

const card = (session: Session<unknown>) => firstValueFrom(session.runningToolCalls$.pipe(filter((calls) => calls.length === 1)));
const dones = (updates: readonly Update<unknown>[]) => updates.filter((update) => update.kind === "done");
const said = (session: Session<unknown>) => session.messages.flatMap((message) => (message.role === "assistant" && message.content ? [message.content] : []));

async function leftWaiting(url: string): Promise<void> {
  const first = new Session(new HttpTransport(url), { threadId: "board", newId: counter("a"), tools: [confirmDelete] });
  const exchange = first.send("delete task 7").subscribe();
  await card(first); // the run ended leaving the call; the card shows
  exchange.unsubscribe(); // the page goes away before anyone answers
}

test("a page dropped during a client tool's card: a fresh Session's connect() shows the card again, and its answer reaches the agent", async () => {
  const seen = { results: [] as Message[][] };
  const { url, store } = await serveStored(confirmingAgent(seen));
  await leftWaiting(url);
  const stored = await store.read("board");
  expect(stored?.kind === "snapshot" && stored.snapshot.pendingToolCallIds).toHaveLength(1);

  const reloaded = new Session(new HttpTransport(url), { threadId: "board", newId: counter("b"), tools: [confirmDelete] });
  const joined = lastValueFrom(reloaded.connect().pipe(toArray()));
  const [call] = await card(reloaded);
  expect(call).toMatchObject({ toolName: "confirm_delete", args: { id: 7 } });
  expect(said(reloaded)).toEqual(["Let me ask you first."]);
  call.respond({ confirmed: true });
  const updates = await joined;

  expect(errorsOf(updates)).toEqual([]);
  expect(dones(updates)).toEqual([{ kind: "done", end: { kind: "success" } }]);
  expect(updates.filter((update) => update.kind === "run")).toHaveLength(1);
  expect(seen.results).toEqual([[expect.objectContaining({ role: "tool", toolCallId: call.toolCallId, content: '{"confirmed":true}' })]]);
  expect(said(reloaded)).toEqual(["Let me ask you first.", "Deleted task 7."]);
  const after = await store.read("board");
  expect(after?.kind === "snapshot" && after.snapshot).not.toHaveProperty("pendingToolCallIds");
  // a page loaded now finds nothing to take up: its connect ends at once
  const later = new Session(new HttpTransport(url), { threadId: "board", tools: [confirmDelete] });
  expect(dones(await lastValueFrom(later.connect().pipe(toArray())))).toEqual([{ kind: "done", end: { kind: "success" } }]);
  expect(later.runningToolCalls).toEqual([]);
});

test("a Session without the tool joins the thread as before: the call is the application's, nothing is executed", async () => {
  const { url } = await serveStored(confirmingAgent({ results: [] }));
  await leftWaiting(url);
  const plain = new Session(new HttpTransport(url), { threadId: "board" });
  const updates = await lastValueFrom(plain.connect().pipe(toArray()));
  expect(dones(updates)).toEqual([{ kind: "done", end: { kind: "success", pendingToolCallIds: [expect.any(String)] } }]);
  expect(plain.running).toBe(false);
});

test("two pages take up the same call: the first answer wins; the other's follow-up is refused, taken back, and it follows the winner's run", async () => {
  const seen = { results: [] as Message[][] };
  const release = gate();
  const { url } = await serveStored(confirmingAgent(seen, release.opened));
  await leftWaiting(url);
  const [tabA, tabB] = ["b", "c"].map((prefix) => new Session(new HttpTransport(url), { threadId: "board", newId: counter(prefix), tools: [confirmDelete] }));
  const joinedA = lastValueFrom(tabA.connect().pipe(toArray()));
  const joinedB = lastValueFrom(tabB.connect().pipe(toArray()));
  const [[cardA], [cardB]] = await Promise.all([card(tabA), card(tabB)]);
  expect(cardB.toolCallId).toBe(cardA.toolCallId);

  cardA.respond({ confirmed: true });
  await until(() => seen.results.length === 1, "A's follow-up to be live on the server");
  const hasAnswer = () => tabB.messages.some((message) => message.role === "tool");
  let answeredB = false;
  const watch = tabB.messages$.subscribe(() => (answeredB ||= hasAnswer()));
  cardB.respond({ confirmed: false }); // too late: the server refuses B's follow-up (the thread's run is A's)
  await until(() => answeredB && !hasAnswer(), "B to append its answer, then take it back");
  watch.unsubscribe();
  release.open();
  const [updatesA, updatesB] = await Promise.all([joinedA, joinedB]);

  expect(seen.results).toHaveLength(1); // the agent answered once, with A's result
  for (const updates of [updatesA, updatesB]) {
    expect(errorsOf(updates)).toEqual([]);
    expect(dones(updates)).toEqual([{ kind: "done", end: { kind: "success" } }]);
  }
  expect(said(tabA)).toEqual(["Let me ask you first.", "Deleted task 7."]);
  expect(tabB.messages).toEqual(tabA.messages); // B took its answer back and followed A's run
});
