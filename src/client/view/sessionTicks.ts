/** One change signal per session for all its views (React hooks, Angular signals), coalesced to the display's frame. */
import { animationFrameScheduler, audit, identity, Observable, share, timer, type SchedulerLike } from "rxjs";

/**
 * When hooks re-render after a change: a scheduler whose next action (delay 0) closes the frame
 * (`animationFrameScheduler`, or a `TestScheduler` in tests), or `null` for "at once" (React still
 * batches the notifications of one task into one render).
 *
 * @example
 * const frame: RenderFrame = animationFrameScheduler;
 */
export type RenderFrame = SchedulerLike | null;

/**
 * What the ticks need of a Session: its change listener registration (`Session.subscribe`).
 *
 * @example
 * const source: ChangeSource = session;
 */
export interface ChangeSource {
  subscribe(listener: () => void): () => void;
}

/**
 * The default frame: `animationFrameScheduler` where `requestAnimationFrame` exists (browsers,
 * jsdom), so any number of changes between two paints (forty text deltas arriving in separate
 * network chunks) cost one render; elsewhere `null`.
 *
 * @example
 * useSession(transport, { threadId: "t", frame: defaultRenderFrame() });
 */
export function defaultRenderFrame(): RenderFrame {
  return typeof requestAnimationFrame === "function" ? animationFrameScheduler : null;
}

const ticksBySession = new WeakMap<ChangeSource, Observable<void>>();

/**
 * The session's change ticks: one emission per frame in which anything on the session changed
 * (messages, state, interrupts, subagents, running). Shared: all hooks on one session hold one
 * listener on it. The first call for a session fixes its frame (`useSession` passes its option;
 * hooks on a session made elsewhere get {@link defaultRenderFrame}).
 *
 * @example
 * const subscription = sessionTicks(session, null).subscribe(() => console.log(session.messages.length));
 */
export function sessionTicks(session: ChangeSource, frame: RenderFrame = defaultRenderFrame()): Observable<void> {
  let ticks = ticksBySession.get(session);
  if (ticks === undefined) {
    const changes = new Observable<void>((subscriber) => session.subscribe(() => subscriber.next()));
    // audit: the first change in a frame opens it, the frame's end emits once (the latest, which
    // is all a reader needs: the hooks read the session, not the tick).
    ticks = changes.pipe(frame === null ? identity : audit(() => timer(0, frame)), share());
    ticksBySession.set(session, ticks);
  }
  return ticks;
}
