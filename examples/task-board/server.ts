/** The task-board agent behind HTTP: a fetch handler and a one-call loopback server. */
import { createHandler, type FetchHandler, type HandlerOptions } from "../../src/server/http/createHandler";
import { serve, type Served } from "../../src/node/serve";
import { createTaskBoardAgent, type TaskBoardOptions } from "./agent";

/** Options of {@link createTaskBoardServer}: the agent's, the handler's, and where to listen. */
export interface TaskBoardServerOptions extends TaskBoardOptions, HandlerOptions {
  /** Port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Interface; 127.0.0.1 by default. */
  readonly host?: string;
}

/**
 * The task-board AG-UI endpoint as a fetch-style handler (mount it anywhere: `POST` any path, and
 * with a store its `/connect`, `/stop` and `/capabilities` below it). The web pages keep their
 * threads: `store: memoryStore(), authorize: bearerThreadAccess` (each thread belongs to the
 * bearer token whose digest starts its id; see access.ts).
 *
 * @example
 * app.all("/agent/*", toNodeHandler(createTaskBoardHandler({ store: memoryStore(), authorize: bearerThreadAccess })));
 */
export function createTaskBoardHandler(options: TaskBoardOptions & HandlerOptions = {}): FetchHandler {
  return createHandler(createTaskBoardAgent(options), options);
}

/**
 * Starts the task-board endpoint on loopback and resolves with `{ url, close() }`.
 *
 * @example
 * const { url, close } = await createTaskBoardServer();
 */
export function createTaskBoardServer(options: TaskBoardServerOptions = {}): Promise<Served> {
  return serve(createTaskBoardHandler(options), { port: options.port, host: options.host });
}
