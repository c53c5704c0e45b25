import { useEffect, useState } from "react";
import { Session, type SessionOptions } from "../client/Session";
import type { Transport } from "../client/transports/Transport";
import { RunController } from "../client/view/RunController";
import { sessionTicks, type RenderFrame } from "../client/view/sessionTicks";

/**
 * `useSession`'s options: the Session's, plus when its hooks re-render.
 *
 * @example
 * const options: UseSessionOptions<Board> = { threadId: "board", state: boardSpec, frame: null };
 */
export interface UseSessionOptions<S> extends SessionOptions<S> {
  /**
   * When the hooks on this session re-render after changes: once per animation frame by default
   * in a browser (`animationFrameScheduler`), at once (`null`) where there is no
   * `requestAnimationFrame`; any scheduler (a `TestScheduler`) otherwise.
   */
  readonly frame?: RenderFrame | undefined;
}

/**
 * A Session made once for the component's lifetime (later `transport`/`options` values are
 * ignored: give the component a new `key` to start over). Unmounting detaches from the run that
 * `useRun` started on it: its request is aborted, and a server that keeps threads goes on with the
 * run (a page that comes back joins it with `connect`), while one that does not stops it; and
 * closes the session (`Session.close()`: it stops following the thread's switches).
 *
 * @example
 * const session = useSession(new HttpTransport("/agent"), { threadId: "board", state: boardSpec });
 */
export function useSession<S>(transport: Transport, options: UseSessionOptions<S>): Session<S> {
  const [session] = useState(() => {
    const made = new Session<S>(transport, options);
    sessionTicks(made, options.frame); // fixes this session's frame before any hook asks
    return made;
  });
  useEffect(
    () => () => {
      RunController.of(session).detach();
      session.close(); // stops following the thread's switches; a later connect() follows again (docs/client.md#branches)
    },
    [session],
  );
  return session;
}
