/**
 * The example's client tool, `get_local_time`: the model asks for the user's local time, which only
 * the browser knows. The page shows a card (`useClientTool`), and the user shares the time read
 * from the browser's clock or declines; the Session sends the answer in the follow-up run itself.
 * The server only offers the tool's name to the model through `RunAgentInput.tools`.
 */
import * as t from "io-ts";
import { clientTool } from "../../src/client/tools/clientTool";
import { waitForResponse } from "../../src/client/tools/waitForResponse";
import { localTime } from "../shared/pageTools";
import { LocalTime } from "../task-board/clientTools";

/** The tool's name, as the model calls it. */
export const GET_LOCAL_TIME = "get_local_time";

/** What the card answers: the browser's date, time, time zone and locale, or that the user declined. */
export const SharedTime = t.union([t.intersection([t.type({ shared: t.literal(true) }), LocalTime]), t.type({ shared: t.literal(false) })], "SharedTime");
export type SharedTime = t.TypeOf<typeof SharedTime>;

/**
 * The client tool the page offers. No arguments; `execute` waits for the card's answer
 * (`respond`), so the user decides whether their clock leaves the browser.
 *
 * @example
 * const session = useSession(transport, { threadId, tools: [getLocalTime] });
 * const cards = useClientTool(session, getLocalTime, (call) => <ShareTimeCard call={call} />);
 */
export const getLocalTime = clientTool({
  name: GET_LOCAL_TIME,
  description:
    "Asks the user to share their local date, time, time zone and locale, read from their browser. " +
    "Answers { shared: true, date, time, timeZone, locale }, or { shared: false } when the user declines.",
  result: SharedTime,
  execute: waitForResponse<SharedTime>,
});

/**
 * The card's "Share" answer: the browser's clock at `now` (its own time zone and locale unless given).
 *
 * @example
 * call.respond(sharedTime(new Date()));
 */
export function sharedTime(now: Date, where: { readonly locale?: string; readonly timeZone?: string } = {}): SharedTime {
  return { shared: true, ...localTime(now, where) };
}
