/**
 * What the task-board pages' client tools are, without the library (so each page makes them with
 * the `clientTool` of the agui-rx it is built with: the React page from src/, the Angular page
 * from the packed tarball): names, descriptions, codecs, the browser's clock, the card's words.
 */
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

/** `get_local_time`: answers at once with the browser's clock; the agent asks for it before it says what is due today. */
export const GET_LOCAL_TIME_TOOL = {
  name: GET_LOCAL_TIME,
  description: "The user's local date, time, time zone and locale, read from their browser",
  result: LocalTime,
  execute: () => localTime(new Date()),
};

/** `confirm_delete`, but for its `execute`: each page gives it `waitForResponse`, and its card's buttons answer `{ confirmed }`. */
export const CONFIRM_DELETE_TOOL = {
  name: CONFIRM_DELETE,
  description: "Asks the user on a card whether to delete a task; answers { confirmed: boolean }",
  parameters: ConfirmDeleteArgs,
  result: ConfirmDeleteAnswer,
};

/**
 * The confirmation card's words for one call.
 *
 * @example
 * confirmationText({ id: 2, title: "call mom" }) // { question: "Delete task 2?", detail: "call mom" }
 */
export function confirmationText(args: ConfirmDeleteArgs): { readonly question: string; readonly detail: string } {
  return { question: `Delete task ${args.id}?`, detail: args.title };
}
