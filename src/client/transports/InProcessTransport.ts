/**
 * A transport that runs in this process, without HTTP (docs/client.md#transports). The run
 * function is handed in, so the client does not import the server (docs/architecture.md#layer-order):
 * `inProcessTransport(agent)` from `agui-rx/server` binds the server's driver to an agent.
 */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import type { Transport } from "./Transport";

/**
 * Runs each input with `runInProcess`, typically the server's driver `run()` bound to an agent:
 * the same events HTTP would carry, without bytes. Cold and cancelled by unsubscribing, as the
 * run function is (the driver aborts the agent's signal).
 *
 * Throws a `TypeError` when handed anything but a function: an `Agent` (an object with a `run`
 * method) was this constructor's argument before the client stopped importing the server.
 *
 * @example
 * import { run } from "agui-rx/server";
 * const session = new Session(new InProcessTransport((input) => run(greeter, input)), { threadId: "t1" });
 */
export class InProcessTransport implements Transport {
  constructor(private readonly runInProcess: (input: RunAgentInput) => Observable<Event>) {
    if (typeof runInProcess !== "function") throw new TypeError(describeArgument(runInProcess));
  }

  run(input: RunAgentInput): Observable<Event> {
    return this.runInProcess(input);
  }
}

/** Why the constructor's argument is refused, naming the fix for the old `new InProcessTransport(agent)`. */
function describeArgument(given: unknown): string {
  const expected = "InProcessTransport: expected a run function (input) => Observable<Event>";
  const isAgentLike = typeof given === "object" && given !== null && "run" in given && typeof given.run === "function";
  if (isAgentLike) {
    return `${expected}, but got an object with a run method (an Agent?): use inProcessTransport(agent) from agui-rx/server, or new InProcessTransport((input) => run(agent, input))`;
  }
  return `${expected}, but got ${given === null ? "null" : typeof given}`;
}
