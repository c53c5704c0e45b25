/**
 * `npm run ai-chat` as a user runs it, on a fresh machine: the script builds the page, serves it
 * and the agent on one origin with the scripted model (no key), answers a chat over HTTP, and
 * exits 0 on SIGTERM.
 */
import { lastValueFrom, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { startServeScript, type RunningServeScript } from "./serveScript";

let chat: RunningServeScript | undefined;
afterAll(async () => {
  await chat?.stop();
});

test("serves the built page and the chat agent on one origin, says which model answers, and stops cleanly", async () => {
  chat = await startServeScript({ AI_CHAT_DELAY_MS: "0" });
  expect(chat.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(chat.output()).toContain("model: the scripted mock (set OPENAI_API_KEY to use OpenAI)");

  const page = await fetch(chat.url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("<title>agui-rx AI chat (React)</title>");
  const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)">/.exec(html)?.[1];
  expect(script).toBeDefined();
  const bundle = await fetch(new URL(script ?? "", chat.url));
  expect([bundle.status, bundle.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);

  const session = new Session(new HttpTransport(new URL("/agent", chat.url).href), { threadId: "serve-test" });
  const updates = await lastValueFrom(session.send("What's the weather in Seoul?").pipe(toArray()));
  expect(updates.at(-1)).toEqual({ kind: "done", end: { kind: "success" } });
  expect(session.messages.at(-1)).toMatchObject({ role: "assistant", content: "It is 21 °C and sunny in Seoul today." });

  expect(await chat.stop()).toBe(0);
}, 60_000);
