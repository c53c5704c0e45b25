/** The pace of a stored run's producer (docs/durability.md#stores-and-routes): its response's while a client reads it, its own fair turns once the client detached. */
import type { FairTurns, StreamTurn } from "./fairTurns";
import type { Ready } from "./toEventStream";

/**
 * What `ctx.ready()` (or a run function's `ready`) follows when the run is kept in a store and
 * outlives its response: while the response is attached, the response's `ready` (the client's
 * reading speed, the send-buffer cap); before the response starts and after its client went away,
 * a turn of `turns` only, so a detached run neither waits for a reader that is gone nor hogs the
 * event loop. Made per run; `end()` when the run is over.
 *
 * @example
 * const pace = new RunPace(sharedTurns);
 * run(agent, input, { ready: pace.ready });
 * toEventStream((ready, signal) => (pace.attach(ready, signal), tail$));
 */
export class RunPace {
  private response: { readonly ready: Ready; readonly gone: AbortSignal } | undefined;
  private turn: StreamTurn | undefined;
  private ended = false;

  constructor(private readonly turns: FairTurns) {}

  /** The response started: follow its `ready` until `gone` aborts. */
  attach(ready: Ready, gone: AbortSignal): void {
    this.response = { ready, gone };
  }

  /** Resolves when the producer may go on (see the class). */
  readonly ready: Ready = () => {
    const response = this.response;
    if (response !== undefined && !response.gone.aborted) return response.ready();
    if (this.ended) return Promise.resolve();
    this.turn ??= this.turns.join();
    return this.turn.pause() ?? Promise.resolve();
  };

  /** The run is over: its own turn, if it took one, is given back. */
  end(): void {
    this.ended = true;
    this.turn?.leave();
  }
}
