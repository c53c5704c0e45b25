/**
 * `npm run ai-chat`: builds the chat page with Vite and serves it with the chat agent
 * (`POST /agent`) on one origin, then prints the URL and which model answers. Without
 * OPENAI_API_KEY the model is the scripted mock, so it works offline.
 * Environment: PORT (default 5174), HOST (default 127.0.0.1), OPENAI_API_KEY, OPENAI_MODEL
 * (default gpt-4o-mini), OPENAI_BASE_URL, AI_CHAT_DELAY_MS (the mock's pace, default 30).
 * Stops on Ctrl-C, a SIGTERM (to it or to npm) or npm going away (`stopOnSignals`).
 */
import { buildChatPage } from "./buildChatPage";
import { chooseModel } from "./chooseModel";
import { startChatServer } from "./server";
import { startFailure, stopOnSignals } from "../task-board/stopOnSignals";

const port = Number(process.env.PORT ?? 5174);

async function main(): Promise<void> {
  const { model, description } = chooseModel(process.env);
  const root = await buildChatPage();
  const web = await startChatServer({ root, model, port, host: process.env.HOST ?? "127.0.0.1" });
  console.log(description);
  console.log(`AI chat (React) at ${web.url}`);
  console.log('try: "what\'s the weather in Seoul?", "what time is it?"');
  stopOnSignals({ close: () => web.close() });
}

main().catch((error: unknown) => {
  process.stderr.write(startFailure(error, port));
  process.exit(1);
});
