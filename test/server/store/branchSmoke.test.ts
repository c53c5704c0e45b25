import { firstValueFrom } from "rxjs";
import { ev } from "../../../src/protocol/build";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { reconcileHistory } from "../../../src/server/history/reconcileHistory";
import type { RunAgentInput } from "../../../src/protocol/input";
import type { Message } from "../../../src/protocol/messages";
import type { Event } from "../../../src/protocol/events";
void firstValueFrom;

const user = (id: string, content: string): Message => ({ id, role: "user", content });
let n = 0;
const ids = () => `x${n++}`;
function input(messages: Message[], extra: Partial<RunAgentInput> = {}): RunAgentInput {
  return { threadId: "t", runId: `r${n++}`, messages, tools: [], context: [], state: {}, forwardedProps: {}, ...extra };
}
async function turn(store: ReturnType<typeof memoryStore>, posted: RunAgentInput, answerId: string, text: string, state?: unknown) {
  const read = await store.read("t");
  const verdict = reconcileHistory(read?.kind === "snapshot" ? read.snapshot : undefined, posted, ids);
  if ("error" in verdict) throw new Error(verdict.message);
  const writer = await store.beginRun(verdict.input, {
    expectCursor: verdict.expectCursor,
    ...(verdict.forkAfter === undefined ? {} : { forkAfter: verdict.forkAfter }),
  });
  if (verdict.recordState) await writer.append([ev.stateSnapshot(verdict.input.state)]);
  const events: Event[] = [ev.textMessageStart(answerId), ev.textMessageContent(answerId, text), ev.textMessageEnd(answerId)];
  if (state !== undefined) events.push(ev.stateSnapshot(state));
  await writer.append([...events, ev.runFinished("t", writer.runId)]);
  return writer;
}

test("smoke: edit, regenerate, select", async () => {
  const store = memoryStore();
  await turn(store, input([user("u1", "hi")]), "a1", "hello", { n: 1 });
  await turn(store, input([user("u2", "more")]), "a2", "more!", { n: 2 });
  // regenerate u2 by inference (official client posts all)
  let read = await store.read("t");
  if (read?.kind !== "snapshot") throw new Error();
  const path = read.snapshot.messages;
  await turn(store, input([path[0], path[1], path[2]], { state: { n: 2 } }), "a2b", "again", { n: 3 });
  read = await store.read("t");
  if (read?.kind !== "snapshot") throw new Error();
  expect(read.snapshot.messages.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2b"]);
  expect(read.snapshot.state).toEqual({ n: 3 });
  expect(read.snapshot.branches?.groups).toEqual([{ after: "u2", selected: 1, siblingIds: ["a2", "a2b"] }]);
  // edit u2 explicitly
  await turn(store, input([user("u2e", "edited")], { forwardedProps: { "agui-rx": { forkAfter: "a1" } } }), "a3", "edited answer");
  read = await store.read("t");
  if (read?.kind !== "snapshot") throw new Error();
  expect(read.snapshot.messages.map((m) => m.id)).toEqual(["u1", "a1", "u2e", "a3"]);
  expect(read.snapshot.state).toEqual({ n: 1 });
  expect(read.snapshot.branches?.groups).toEqual([{ after: "a1", selected: 1, siblingIds: ["u2", "u2e"] }]);
  expect(await store.selectBranch("t", "u2e", 0)).toBe("switched");
  read = await store.read("t");
  if (read?.kind !== "snapshot") throw new Error();
  expect(read.snapshot.messages.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2b"]);
  expect(read.snapshot.state).toEqual({ n: 3 });
  expect(read.snapshot.branches?.groups).toEqual([
    { after: "a1", selected: 0, siblingIds: ["u2", "u2e"] },
    { after: "u2", selected: 1, siblingIds: ["a2", "a2b"] },
  ]);
  expect(await store.selectBranch("t", "a2b", 0)).toBe("switched");
  read = await store.read("t");
  if (read?.kind !== "snapshot") throw new Error();
  expect(read.snapshot.messages.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);
  expect(read.snapshot.state).toEqual({ n: 2 });
  expect(await store.selectBranch("t", "u2", 1)).toBe("switched");
  read = await store.read("t");
  if (read?.kind !== "snapshot") throw new Error();
  expect(read.snapshot.messages.map((m) => m.id)).toEqual(["u1", "a1", "u2e", "a3"]);
  expect(await store.selectBranch("t", "u2e", 0)).toBe("switched");
  read = await store.read("t");
  if (read?.kind !== "snapshot") throw new Error();
  expect(read.snapshot.messages.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);
});
