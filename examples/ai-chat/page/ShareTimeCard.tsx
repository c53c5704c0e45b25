/** The `get_local_time` client tool's card: the model waits on it until the user shares the browser's time or declines. */
import type { RunningToolCall } from "../../../src/client/tools/RunningToolCalls";
import { focusCard } from "../../shared/focusCard";
import { sharedTime, type SharedTime } from "../localTime";

/**
 * One pending `get_local_time` call: Share answers with the browser's clock read at the click,
 * Don't share answers `{ shared: false }`. Either answer lets the Session send it in the
 * follow-up run.
 *
 * @example
 * const cards = useClientTool(session, getLocalTime, (call) => <ShareTimeCard call={call} />);
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tool takes no arguments: `{}` is what its codec decodes to
export function ShareTimeCard({ call }: { readonly call: RunningToolCall<{}, SharedTime> }) {
  return (
    <div
      className="approval confirm share-time"
      data-testid="share-time"
      data-call={call.toolCallId}
      role="alertdialog"
      aria-label="Share your local time"
      tabIndex={-1}
      ref={focusCard}
    >
      <div className="icon" aria-hidden="true">
        ?
      </div>
      <div className="text">
        <strong>Share your local time?</strong>
        <small>The model asks for your date, time and time zone, read from this browser.</small>
      </div>
      <div className="actions">
        <button className="reject" data-testid="decline-time" type="button" onClick={() => call.respond({ shared: false })}>
          Don't share
        </button>
        <button className="approve" data-testid="share-time-button" type="button" onClick={() => call.respond(sharedTime(new Date()))}>
          Share
        </button>
      </div>
    </div>
  );
}
