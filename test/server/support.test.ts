/** The shared stream assertion must be able to fail, or every test using it proves nothing. */
import { ev } from "../../src/protocol/build";
import { expectAccepted } from "./support";

test("expectAccepted accepts a valid stream", async () => {
  await expectAccepted([ev.runStarted("t", "r"), ev.runFinished("t", "r")]);
});

test.each([
  ["content for a message that never started", [ev.runStarted("t", "r"), ev.textMessageContent("m9", "hi"), ev.runFinished("t", "r")]],
  ["a run finished with a message open", [ev.runStarted("t", "r"), ev.textMessageStart("m1"), ev.runFinished("t", "r")]],
  ["no RUN_STARTED", [ev.textMessageStart("m1")]],
])("expectAccepted rejects %s", async (_, events) => {
  await expect(expectAccepted(events)).rejects.toThrow();
});
