/** The chat agent behind HTTP: the AG-UI handler alone, or with the built page on one origin. */
import type { Served } from "../../src/node/serve";
import { createHandler, type FetchHandler, type HandlerOptions } from "../../src/server/http/createHandler";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import { startWebServer } from "../react/webServer";
import { createChatAgent, type ChatAgentOptions } from "./agent";

/**
 * The chat's AG-UI endpoint as a fetch-style handler (`POST` it a `RunAgentInput`).
 *
 * @example
 * const served = await serve(createChatHandler({ model: scriptedChatModel({ delayMs: null }) }));
 */
export function createChatHandler(options: ChatAgentOptions & HandlerOptions): FetchHandler {
  return createHandler(createChatAgent(options), options);
}

/** Options of {@link startChatServer}. */
export interface ChatServerOptions extends ChatAgentOptions, HandlerOptions {
  /** The built page's folder (`buildChatPage()`). */
  readonly root: string;
  /** Port; 0 picks a free one. */
  readonly port?: number;
  /** Interface; 127.0.0.1 by default. */
  readonly host?: string;
}

/**
 * Serves the page and the agent (`POST /agent`) on one origin and resolves once listening. The
 * threads are kept (`store`, a memory store unless given), so the page joins its conversation on
 * a reload (`POST /agent/connect`) and Stop cancels a run on the server. Unless `identify` says
 * otherwise, every visitor is one principal (a loopback demo: the thread ids are the only
 * protection), which also serves the route a joined Session follows its thread on
 * (`GET /agent/threads/events`, which a server without `identify` answers 404).
 *
 * @example
 * const web = await startChatServer({ root: await buildChatPage(), model: chooseModel(process.env).model });
 * console.log(web.url);
 */
export function startChatServer(options: ChatServerOptions): Promise<Served> {
  return startWebServer({
    root: options.root,
    agent: createChatHandler({ ...options, store: options.store ?? memoryStore(), identify: options.identify ?? oneVisitor }),
    port: options.port,
    host: options.host,
  });
}

/** The demo's one principal: everybody who reaches the loopback page. */
function oneVisitor(): string {
  return "visitor";
}
