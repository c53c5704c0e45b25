/**
 * The task board's slow command, `count to <n>`: one number per step of a pace, so that a person
 * (or a browser test) can type while the run is live and see what each policy does with it
 * (docs/queue.md#policies). While it counts, the agent takes steered messages (`ctx.incoming$`,
 * docs/queue.md#steer) and says so in the answer.
 */
import type { UserMessage } from "../../src/protocol/messages";
import type { RunContext } from "../../src/server/RunContext";

/**
 * What each counted step waits for. It settles when the step may go on, and rejects with the
 * signal's reason once the run is cancelled (Stop, or an interrupting message), so a cancelled run
 * never stays parked on a step.
 *
 * @example
 * const pace: Pace = timerPace(500);
 * await pace(ctx.signal);
 */
export type Pace = (signal: AbortSignal) => Promise<void>;

/**
 * A {@link Pace} of `ms` milliseconds a step: what the demos use (`npm run web`). Tests pass a pace
 * they step themselves instead.
 *
 * @example
 * createTaskBoardAgent({ countPace: timerPace(1000) });
 */
export function timerPace(ms: number): Pace {
  return (signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const cancelled = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", cancelled);
        resolve();
      }, ms);
      signal.addEventListener("abort", cancelled, { once: true });
    });
}

/**
 * Counts from 1 to `to`, one assistant message per number, each after a step of `pace`. Every
 * message steered into the run meanwhile is taken (the runtime records it in the run, where it
 * was taken) and answered at once with `Heard you mid-count: "<text>".`; steers sent after the
 * count are not taken here (the runtime makes them queued runs when this run ends).
 *
 * @example
 * case "count": await countAloud(ctx, command.to, pace); break;
 */
export async function countAloud<S>(ctx: RunContext<S>, to: number, pace: Pace): Promise<void> {
  const heard = ctx.incoming$.subscribe((message) => {
    // The run may have been cancelled between the take and this call: a write would throw then.
    if (!ctx.signal.aborted) ctx.say(`Heard you mid-count: "${steeredText(message)}".`);
  });
  try {
    for (let n = 1; n <= to; n++) {
      await pace(ctx.signal);
      ctx.say(n === to ? `${n}. Done counting.` : `${n}…`);
    }
  } finally {
    heard.unsubscribe();
  }
}

/** A steered message's text (a steer is text only: a string, or text parts). */
function steeredText(message: UserMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ");
}
