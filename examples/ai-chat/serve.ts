/**
 * `npm run ai-chat`: builds the chat page with Vite and serves it with the chat agent
 * (`POST /agent`) on one origin, then prints the URL and which model answers. Without
 * OPENAI_API_KEY the model is the scripted mock, so it works offline.
 * Environment: PORT (default 5174), HOST (default 127.0.0.1), OPENAI_API_KEY, OPENAI_MODEL
 * (default gpt-4o-mini), OPENAI_BASE_URL, AI_CHAT_DELAY_MS (the mock's pace, default 30).
 */
import { buildChatPage } from "./buildChatPage";
import { chooseModel } from "./chooseModel";
import { startChatServer } from "./server";

async function main(): Promise<void> {
  const { model, description } = chooseModel(process.env);
  const root = await buildChatPage();
  const web = await startChatServer({ root, model, port: Number(process.env.PORT ?? 5174), host: process.env.HOST ?? "127.0.0.1" });
  console.log(description);
  console.log(`AI chat (React) at ${web.url}`);
  console.log('try: "what\'s the weather in Seoul?", "what time is it?"');
  const stop = () => void web.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
