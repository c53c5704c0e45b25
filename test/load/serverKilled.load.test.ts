/**
 * Fault: the server process is killed (SIGKILL) mid-stream (issue #14 D). The client Session must
 * end the run `failed` after an `error` of kind `transport`, and keep everything that arrived:
 * the user message and the assistant text streamed so far.
 */
import { once } from "node:events";
import { Session } from "../../src/client/Session";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import type { Update } from "../../src/thread/Update";
import { bounded, startLoadServer, type LoadServer } from "./support/loadClient";

let server: LoadServer | undefined;
afterAll(async () => server?.stop());

const DELTA = "0123456789";

test("a server killed mid-stream: the Session fails with a transport error and keeps what arrived", async () => {
  server = await startLoadServer();
  const { child } = server;
  const session = new Session(new HttpTransport(`${server.url}endless?size=${DELTA.length}`), { threadId: "killed" });
  let streamed = "";
  const updates = await bounded(
    30_000,
    new Promise<Update<unknown>[]>((resolve, reject) => {
      const seen: Update<unknown>[] = [];
      session.send("stream until you are killed").subscribe({
        next: (update) => {
          seen.push(update);
          // the assistant's text only: the user's own message has a content change too
          if (update.kind !== "message" || update.change.kind !== "content" || update.message.role !== "assistant") return;
          streamed += update.change.delta;
          if (streamed.length === 200 * DELTA.length) child.kill("SIGKILL"); // 200 deltas in, the process dies
        },
        error: reject,
        complete: () => resolve(seen),
      });
    }),
    "the Session's run to end",
  );
  const exit = child.signalCode ?? (await once(child, "exit"))[1];
  const errors = updates.filter((update) => update.kind === "error");
  const done = updates[updates.length - 1];
  const assistant = session.messages.find((message) => message.role === "assistant");
  console.log(
    `fault: server killed mid-stream\n${JSON.stringify(
      {
        serverExit: exit,
        deltasReceived: streamed.length / DELTA.length,
        errors: errors.map((update) => (update.kind === "error" ? `${update.error.kind}: ${update.error.message.slice(0, 100)}` : "")),
        end: done.kind === "done" ? done.end : done.kind,
        messagesKept: session.messages.map((message) => message.role),
      },
      null,
      2,
    )}`,
  );
  expect(exit).toBe("SIGKILL");
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({ kind: "error", error: { kind: "transport" } });
  expect(done).toMatchObject({ kind: "done", end: { kind: "failed" } });
  // everything that arrived is kept: the user's message, and the assistant text up to the cut
  expect(session.messages[0]).toMatchObject({ role: "user", content: "stream until you are killed" });
  expect(assistant?.content).toBe(streamed);
  expect(streamed.length).toBeGreaterThanOrEqual(200 * DELTA.length);
}, 60_000);
