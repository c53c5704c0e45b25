/**
 * The task board's client tools, the agent's side: the names and codecs the agent and the pages
 * agree on, and how the agent reads the page's answers in the follow-up run (docs/tools.md).
 * The pages' implementations are in examples/shared/pageTools.ts.
 */
import * as E from "fp-ts/Either";
import * as t from "io-ts";
import type { ToolCall } from "../../src/protocol/messages";
import type { RunContext } from "../../src/server/RunContext";

/** The page's clock: asked before the agent says what is due today. */
export const GET_LOCAL_TIME = "get_local_time";
/** The confirmation card: asked before a task is deleted. */
export const CONFIRM_DELETE = "confirm_delete";

/** What `get_local_time` answers: the date and time as the user reads them, their time zone and locale. */
export const LocalTime = t.type({ date: t.string, time: t.string, timeZone: t.string, locale: t.string }, "LocalTime");
export type LocalTime = t.TypeOf<typeof LocalTime>;

/** What `confirm_delete` is asked with: the task, so the card can name it. */
export const ConfirmDeleteArgs = t.type({ id: t.number, title: t.string }, "ConfirmDeleteArgs");
export type ConfirmDeleteArgs = t.TypeOf<typeof ConfirmDeleteArgs>;
/** What the card answers. */
export const ConfirmDeleteAnswer = t.type({ confirmed: t.boolean }, "ConfirmDeleteAnswer");
export type ConfirmDeleteAnswer = t.TypeOf<typeof ConfirmDeleteAnswer>;

/** Client call ids look like `ask:<command index>:<run id>`, so the follow-up run knows which command each answers. */
const ASK = /^ask:(\d+):(.+)$/;

/**
 * The id of the client call asked for command `index` in this run.
 *
 * @example
 * ctx.toolCall(GET_LOCAL_TIME, { id: askId(ctx, 2) }); // "ask:2:<run id>"
 */
export function askId<S>(ctx: RunContext<S>, index: number): string {
  return `ask:${index}:${ctx.runId}`;
}

/** One client call of the last turn and the page's answer to it. */
export interface AnsweredCall {
  /** The command the call was made for. */
  readonly index: number;
  readonly call: ToolCall;
  /** The answer's JSON, or why there is none usable (the tool failed, or the answer does not parse). */
  readonly answer: E.Either<string, unknown>;
}

/**
 * The page's answers to the client calls of the last run of this turn, in the calls' order, or
 * `undefined` when this run is not such a follow-up (no client call since the last user message).
 *
 * @example
 * const answered = answeredCalls(ctx);
 * if (answered) from = answered[answered.length - 1].index + 1;
 */
export function answeredCalls<S>(ctx: RunContext<S>): readonly AnsweredCall[] | undefined {
  const messages = ctx.messages;
  let since = messages.length;
  while (since > 0 && messages[since - 1].role !== "user") since--;
  const asked = messages.slice(since).flatMap((message) => {
    if (message.role !== "assistant") return [];
    return (message.toolCalls ?? []).flatMap((call) => {
      const match = ASK.exec(call.id);
      return match === null ? [] : [{ index: Number(match[1]), runId: match[2], call }];
    });
  });
  const last = asked.at(-1)?.runId;
  if (last === undefined) return undefined;
  return asked.filter((entry) => entry.runId === last).map(({ index, call }) => ({ index, call, answer: answerOf(ctx, call.id) }));
}

/**
 * Decodes an answer with `codec`: the value, or a sentence saying why it cannot be used.
 *
 * @example
 * const time = decodeAnswer(LocalTime, answered.answer);
 */
export function decodeAnswer<A>(codec: t.Decoder<unknown, A>, answer: E.Either<string, unknown>): E.Either<string, A> {
  if (E.isLeft(answer)) return answer;
  const decoded = codec.decode(answer.right);
  return E.isRight(decoded) ? decoded : E.left(`the page answered ${JSON.stringify(answer.right)}, not a ${codec.name}`);
}

function answerOf<S>(ctx: RunContext<S>, toolCallId: string): E.Either<string, unknown> {
  const message = ctx.toolResultFor(toolCallId);
  if (message === undefined) return E.left("the page did not answer");
  if (message.error !== undefined) return E.left(message.error);
  const content = typeof message.content === "string" ? message.content : "";
  try {
    return E.right(JSON.parse(content));
  } catch {
    return E.right(content); // a tool may answer with plain text
  }
}
