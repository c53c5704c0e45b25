import { useEffect, useState } from "react";
import { Session, type SessionOptions } from "../client/Session";
import type { Transport } from "../client/transports/Transport";
import { RunController } from "./RunController";

/**
 * A Session made once for the component's lifetime (later `transport`/`options` values are
 * ignored: give the component a new `key` to start over). Unmounting stops the run that `useRun`
 * started on it, so a page that goes away aborts its request.
 *
 * @example
 * const session = useSession(new HttpTransport("/agent"), { threadId: "board", state: boardSpec });
 */
export function useSession<S>(transport: Transport, options: SessionOptions<S>): Session<S> {
  const [session] = useState(() => new Session<S>(transport, options));
  useEffect(() => () => RunController.of(session).stop(), [session]);
  return session;
}
