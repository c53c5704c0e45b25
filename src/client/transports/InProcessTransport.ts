/** A transport that runs a server-side Agent in this process, without HTTP. */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import type { Agent } from "../../server/Agent";
import { run, type RunOptions } from "../../server/run";
import type { Transport } from "./Transport";

/**
 * Runs `agent` with the server driver `run()` for each input: the same events HTTP would carry,
 * without bytes. Unsubscribing aborts the agent's signal.
 *
 * @example
 * const session = new Session(new InProcessTransport(greeter), { threadId: "t1" });
 */
export class InProcessTransport<S = unknown> implements Transport {
  constructor(
    private readonly agent: Agent<S>,
    private readonly options: RunOptions = {},
  ) {}

  run(input: RunAgentInput): Observable<Event> {
    return run(this.agent, input, this.options);
  }
}
