/** Builds the AI chat's React page (examples/ai-chat/page) with Vite, as the task board's page is built. */
import { join } from "node:path";
import { buildWithVite } from "../react/buildPage";

/** The page's sources (its `vite.config.mjs`, `index.html`, components). */
export const CHAT_PAGE = join(__dirname, "page");
/** Where the built page goes. */
export const CHAT_DIST = join(CHAT_PAGE, "dist");

/**
 * Runs `vite build` for the chat page (a production build) and resolves with the folder to serve.
 *
 * @example
 * const web = await startChatServer({ root: await buildChatPage(), model });
 */
export async function buildChatPage(): Promise<string> {
  await buildWithVite(CHAT_PAGE);
  return CHAT_DIST;
}
