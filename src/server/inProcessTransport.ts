/**
 * An agent run in the client's process, without HTTP (docs/client.md#transports): the server's
 * half of the client's `InProcessTransport`, which takes a run function and imports nothing of the server.
 */
import type { Observable } from "rxjs";
import type { Event } from "../protocol/events";
import type { RunAgentInput } from "../protocol/input";
import type { Agent } from "./Agent";
import { run, type RunAgentOptions } from "./run";

/**
 * A transport (structurally: `{ run(input) }`, what `Session` takes) that runs `agent` with the
 * driver `run()` for each input: the same events HTTP would carry, without bytes. Unsubscribing
 * aborts the agent's signal. `options` go to every run (`ids`, `exposeStack`, …).
 *
 * @example
 * import { inProcessTransport } from "agui-rx/server";
 * const session = new Session(inProcessTransport(greeter), { threadId: "t1" });
 */
export function inProcessTransport<S>(agent: Agent<S>, options: RunAgentOptions = {}): { run(input: RunAgentInput): Observable<Event> } {
  return { run: (input) => run(agent, input, options) };
}
