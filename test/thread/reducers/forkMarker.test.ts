/** The shared reducer at a RUN_STARTED fork marker (docs/threads.md#branches-on-the-wire): the path is cut right after `after`, then the input applies. */
import { forkMetadata, type ForkMarker } from "../../../src/protocol/branchMeta";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { applyEvent } from "../../../src/thread/reducers/applyEvent";
import { answer, clientWith, pathIds, user } from "../branches/support";
import type { ClientState } from "../../../src/thread/reducers/ClientState";

const whole = [user("u1"), answer("a1"), user("u2"), answer("a2")];

function forkStart(marker: ForkMarker, input?: readonly Message[]): Event {
  return ev.runStarted("t", "r9", {
    metadata: forkMetadata(marker),
    ...(input === undefined ? {} : { input: runAgentInput("t", "r9", { messages: [...input] }) }),
  });
}

function apply(client: ClientState<unknown>, ...events: Event[]) {
  return events.flatMap((event) => [...applyEvent(client, event)]);
}

describe("a RUN_STARTED fork marker", () => {
  test("a client with the whole path: a regenerate cuts after the user message; the run's answer follows", () => {
    const client = clientWith(whole);
    const updates = apply(client, forkStart({ after: "u2", siblingIds: ["a2"] }));
    expect(pathIds(client)).toEqual(["u1", "a1", "u2"]);
    expect(updates).toEqual([{ kind: "messages", messages: client.messages.snapshot() }]);
    apply(client, ev.textMessageStart("a2b"), ev.textMessageContent("a2b", "again"), ev.textMessageEnd("a2b"));
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2b"]);
  });

  test("an edit: cut after the message before the edited one, then the input's edited message (a stored id is not appended twice)", () => {
    const client = clientWith(whole);
    apply(client, forkStart({ after: "a1", siblingIds: ["u2"] }, [user("u1"), answer("a1"), user("u2e", "edited")]));
    expect(pathIds(client)).toEqual(["u1", "a1", "u2e"]);
  });

  test("an in-place edit keeps the id: the old message is cut, the input's edited copy takes its place", () => {
    const client = clientWith(whole);
    apply(client, forkStart({ after: "a1", siblingIds: ["u2"] }, [user("u1"), answer("a1"), user("u2", "edited")]));
    expect(client.messages.snapshot()).toEqual([user("u1"), answer("a1"), user("u2", "edited")]);
  });

  test("after: null cuts the whole path", () => {
    const client = clientWith(whole);
    apply(client, forkStart({ after: null, siblingIds: ["u1"] }, [user("v1")]));
    expect(pathIds(client)).toEqual(["v1"]);
  });

  test("a windowed client that does not hold `after` holds only messages past the fork point: all of them go", () => {
    const client = clientWith([user("u2"), answer("a2")]); // the last two of a path whose fork point a1 is older
    const updates = apply(client, forkStart({ after: "a1", siblingIds: ["u2"] }));
    expect(pathIds(client)).toEqual([]);
    expect(updates).toEqual([{ kind: "messages", messages: [] }]);
  });

  test("a windowed client that holds `after` cuts right after it", () => {
    const client = clientWith([answer("a1"), user("u2"), answer("a2")]);
    apply(client, forkStart({ after: "u2", siblingIds: ["a2"] }));
    expect(pathIds(client)).toEqual(["a1", "u2"]);
  });

  test("a marker after the path's last message cuts nothing and says nothing changed", () => {
    const client = clientWith(whole);
    expect(apply(client, forkStart({ after: "a2", siblingIds: [] }))).toEqual([]);
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2"]);
  });

  test("a malformed marker is no marker: nothing is cut", () => {
    const client = clientWith(whole);
    apply(client, ev.runStarted("t", "r9", { metadata: { "agui-rx": { fork: { after: 7 } } } }));
    expect(pathIds(client)).toEqual(["u1", "a1", "u2", "a2"]);
  });
});
