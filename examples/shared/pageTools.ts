/**
 * The client tools both task-board pages offer the agent (names and codecs from
 * examples/task-board/clientTools.ts): `get_local_time`, answered automatically from the
 * browser's clock, and `confirm_delete`, answered by the user on a card.
 */
import { clientTool } from "../../src/client/tools/clientTool";
import { waitForResponse } from "../../src/client/tools/waitForResponse";
import { CONFIRM_DELETE, ConfirmDeleteAnswer, ConfirmDeleteArgs, GET_LOCAL_TIME, LocalTime } from "../task-board/clientTools";

/**
 * The user's date, time, time zone and locale at `now`, as the browser formats them. `locale`
 * and `timeZone` default to the browser's own (what `Intl` resolves).
 *
 * @example
 * localTime(new Date("2025-06-03T02:05:00Z"), { locale: "en-NZ", timeZone: "Pacific/Auckland" });
 * // { date: "Tuesday, 3 June 2025", time: "2:05 pm", timeZone: "Pacific/Auckland", locale: "en-NZ" }
 */
export function localTime(now: Date, where: { readonly locale?: string; readonly timeZone?: string } = {}): LocalTime {
  const resolved = new Intl.DateTimeFormat(where.locale, { timeZone: where.timeZone }).resolvedOptions();
  const { locale, timeZone } = resolved;
  return {
    date: now.toLocaleDateString(locale, { timeZone, weekday: "long", year: "numeric", month: "long", day: "numeric" }),
    time: now.toLocaleTimeString(locale, { timeZone, hour: "numeric", minute: "2-digit" }),
    timeZone,
    locale,
  };
}

/** Answers at once with the browser's clock: the agent asks for it before it says what is due today. */
export const getLocalTime = clientTool({
  name: GET_LOCAL_TIME,
  description: "The user's local date, time, time zone and locale, read from their browser",
  result: LocalTime,
  execute: () => localTime(new Date()),
});

/** Waits for the user: the page shows a card, and its buttons answer `{ confirmed }`. */
export const confirmDelete = clientTool({
  name: CONFIRM_DELETE,
  description: "Asks the user on a card whether to delete a task; answers { confirmed: boolean }",
  parameters: ConfirmDeleteArgs,
  result: ConfirmDeleteAnswer,
  execute: waitForResponse,
});

/** What both pages give their Session's `tools`. */
export const PAGE_TOOLS = [getLocalTime, confirmDelete] as const;

/**
 * The confirmation card's words for one call.
 *
 * @example
 * confirmationText({ id: 2, title: "call mom" }) // { question: "Delete task 2?", detail: "call mom" }
 */
export function confirmationText(args: ConfirmDeleteArgs): { readonly question: string; readonly detail: string } {
  return { question: `Delete task ${args.id}?`, detail: args.title };
}
