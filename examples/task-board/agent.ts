/**
 * The task-board agent: a deterministic planner (no model, no network) that streams an assistant
 * message, edits the board through `add_task` / `complete_task` / `delete_task` tool calls
 * (publishing the state once per change), delegates research to a `researcher` subagent inside a
 * `research` step, asks for approval before clearing the board (an interrupt), and asks the page
 * through client tools for the user's local time (`get_local_time`) and for a confirmation
 * before deleting a task (`confirm_delete`).
 */
import * as E from "fp-ts/Either";
import { interrupted, success, type Agent, type RunOutcome } from "../../src/server/Agent";
import type { RunContext } from "../../src/server/RunContext";
import type { MessageHandle } from "../../src/server/handles/MessageHandle";
import { boardSpec, clearQuestion, nextTaskId, summarize, type Board } from "./board";
import {
  answeredCalls,
  askId,
  CONFIRM_DELETE,
  ConfirmDeleteAnswer,
  ConfirmDeleteArgs,
  decodeAnswer,
  GET_LOCAL_TIME,
  LocalTime,
  type AnsweredCall,
} from "./clientTools";
import { countAloud, timerPace, type Pace } from "./counting";
import { HELP, plan, type Command } from "./planner";

/** Options of {@link createTaskBoardAgent}. */
export interface TaskBoardOptions {
  /**
   * Milliseconds between streamed words (default 0: no waiting, everything is written at once).
   * Set it in demos to watch text arrive word by word.
   */
  readonly typingDelayMs?: number;
  /**
   * Milliseconds between the researcher's words (default: `typingDelayMs`). The browser tests set
   * it high, so that "research rxjs" streams long enough to reload the page or press Stop in it.
   */
  readonly researchDelayMs?: number;
  /**
   * What each step of `count to <n>` waits for (default: `typingDelayMs` × 25 on a timer, so 1 s
   * a number at the demos' 40 ms; no wait at all when that is 0). The browser tests pass a pace
   * they step, so a run stays live exactly as long as they need to type into it.
   */
  readonly countPace?: Pace;
}

/** The interrupt reason the agent uses before clearing the board. */
export const CLEAR_REASON = "confirmation";

/** Interrupt ids look like `clear:<command index>:<run id>`, so the resumed run knows where to go on. */
const CLEAR_PREFIX = "clear:";

/**
 * Makes the task-board agent. Per run it reads the last user message as commands (`add <title>`,
 * `done <id>`, `delete <id>`, `research <topic>`, `clear`, `list`, `what's due today`, separated
 * by `;`):
 *
 * 1. streams a short assistant message saying what it is about to do;
 * 2. per `add`/`done`: a tool call (`add_task {title}` → `{id}`, `complete_task {id}` → `{ok}`)
 *    whose handle edits the board and publishes it while the call is open, so two additions send
 *    a STATE_SNAPSHOT and then a STATE_DELTA (docs/seeds.md#seed-000: once per change, not once per run);
 * 3. per `research`: a `research` step in which a `researcher` subagent streams its notes;
 *    per `count to <n>`: one number per step of `countPace`, taking the messages steered into
 *    the run meanwhile and saying it heard each (counting.ts, docs/queue.md#steer);
 * 4. per `clear` on a non-empty board: ends the run with an interrupt (reason `confirmation`);
 *    the next run, resumed with `{ approved: true }`, clears the board (anything else keeps it)
 *    and then carries on with the commands after `clear`;
 * 5. per `what's due today`: when the client offers `get_local_time`, calls it and ends the run
 *    (the client answers and starts the follow-up run, which says what is due with the user's
 *    date, time and time zone); without it, answers by the server's clock (UTC);
 * 6. per `delete <id>`: when the client offers `confirm_delete`, calls it with the task and ends
 *    the run; the follow-up run deletes the task (`delete_task`) if the answer is
 *    `{ confirmed: true }` and keeps it otherwise. Without the tool the task stays.
 *    Consecutive client-tool commands share one turn (their calls run side by side on the page);
 *    the follow-up run goes on with the commands after them;
 * 7. says a one-line summary of the board.
 *
 * @example
 * const handler = createHandler(createTaskBoardAgent({ typingDelayMs: 30 }));
 */
export function createTaskBoardAgent(options: TaskBoardOptions = {}): Agent<Board> {
  const delay = options.typingDelayMs ?? 0;
  const researchDelay = options.researchDelayMs ?? delay;
  const countPace = options.countPace ?? (delay > 0 ? timerPace(delay * 25) : () => Promise.resolve());
  const pauseOf = (ms: number) => (ms > 0 ? () => new Promise<void>((resolve) => setTimeout(resolve, ms)) : undefined);

  /** Writes `text` to `message` a word at a time (with `ms` in between, if any). */
  async function stream(message: MessageHandle<Board>, text: string, ms = delay): Promise<void> {
    const pause = pauseOf(ms);
    const words = text.split(/(?<= )/);
    for (const word of words) {
      message.delta(word);
      if (pause) await pause();
    }
    message.end();
  }

  return {
    state: boardSpec,
    async run(ctx): Promise<RunOutcome> {
      const commands = plan(ctx.lastUserText() ?? "");
      let from = 0;
      const intro = ctx.assistantMessage();
      const answer = ctx.resume.find((entry) => entry.interruptId.startsWith(CLEAR_PREFIX));
      const answered = answer === undefined ? answeredCalls(ctx) : undefined;
      if (answer) {
        from = Number(answer.interruptId.split(":")[1]) + 1;
        const approved = answer.status === "resolved" && isApproval(answer.payload);
        await stream(intro, approved ? "Approved: clearing the board. " : "Not approved: the board stays as it is. ");
        if (approved) clearBoard(ctx, intro.id);
      } else if (answered) {
        // A follow-up run: the page answered the client calls of the last run; go on after their commands.
        from = answered[answered.length - 1].index + 1;
        await stream(intro, `${answered.map((call) => replyTo(call, ctx.state)).join(" ")} `);
        for (const call of answered) {
          const confirmed = confirmedDeletion(call);
          if (confirmed !== undefined) deleteTask(ctx, confirmed, intro.id);
        }
      } else {
        await stream(intro, describe(commands));
      }

      let asked = false;
      for (let index = from; index < commands.length; index++) {
        const command = commands[index];
        // The page answers the calls asked so far before anything else happens: end the run here.
        if (asked && command.kind !== "today" && command.kind !== "delete") return success();
        switch (command.kind) {
          case "add":
            addTask(ctx, command.title, intro.id);
            break;
          case "done":
            completeTask(ctx, command.id, intro.id);
            break;
          case "today":
            if (ctx.tool(GET_LOCAL_TIME) === undefined) {
              ctx.say(`This client offers no ${GET_LOCAL_TIME}, so by the server's clock: ${dueToday(serverTime(), ctx.state)}`);
              break;
            }
            ctx
              .toolCall(GET_LOCAL_TIME, { id: askId(ctx, index), parentMessageId: intro.id })
              .argsJson({})
              .end();
            asked = true;
            break;
          case "delete": {
            const task = ctx.state.tasks.find((candidate) => candidate.id === command.id);
            if (task === undefined) ctx.say(`There is no task ${command.id} to delete.`);
            else if (ctx.tool(CONFIRM_DELETE) === undefined)
              ctx.say(`I delete a task only once you confirm, and this client offers no ${CONFIRM_DELETE}: task ${task.id} stays.`);
            else {
              ctx
                .toolCall(CONFIRM_DELETE, { id: askId(ctx, index), parentMessageId: intro.id })
                .argsJson({ id: task.id, title: task.title })
                .end();
              asked = true;
            }
            break;
          }
          case "research":
            await ctx.step("research", async () => {
              const researcher = ctx.subagent("researcher", { description: "Looks up background on a topic", parentMessageId: intro.id });
              await stream(researcher.assistantMessage(), notesOn(command.topic), researchDelay);
              researcher.finish({ topic: command.topic });
            });
            break;
          case "count":
            await countAloud(ctx, command.to, countPace);
            break;
          case "clear":
            if (ctx.state.tasks.length === 0) {
              ctx.say("The board is already empty.");
              break;
            }
            return interrupted(
              ctx.interrupt({
                id: `${CLEAR_PREFIX}${index}:${ctx.runId}`,
                reason: CLEAR_REASON,
                message: clearQuestion(ctx.state.tasks.length),
                responseSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
              }),
            );
          case "list":
            ctx.say(ctx.state.tasks.map((task) => `${task.done ? "[x]" : "[ ]"} ${task.id}. ${task.title}`).join("\n") || "Nothing on the board.");
            break;
          case "unknown":
            ctx.say(`I did not understand "${command.text}". ${HELP}`);
            break;
        }
      }
      if (asked) return success(); // the run ends with the page's calls pending; the follow-up run goes on
      ctx.say(summarize(ctx.state));
      return success({ tasks: ctx.state.tasks.length });
    },
  };
}

/** The agent with no typing delay: what tests and the e2e pages use. */
export const taskBoardAgent: Agent<Board> = createTaskBoardAgent();

// The board is edited immutably (`updateState` returning a new value): the state the run starts
// from may be the spec's shared default object, which must never be mutated.

function addTask(ctx: RunContext<Board>, title: string, parentMessageId: string): void {
  const call = ctx.toolCall("add_task", { parentMessageId });
  call.argsJson({ title });
  const id = nextTaskId(call.state);
  // Published while the call is open: the client sees the board move as the call runs.
  call.updateState((board) => ({ tasks: [...board.tasks, { id, title, done: false }] }));
  call.resultJson({ id });
}

function completeTask(ctx: RunContext<Board>, id: number, parentMessageId: string): void {
  const call = ctx.toolCall("complete_task", { parentMessageId });
  call.argsJson({ id });
  const task = call.state.tasks.find((candidate) => candidate.id === id);
  if (task === undefined) {
    call.resultJson({ ok: false, error: `there is no task ${id}` });
    return;
  }
  if (!task.done) call.updateState((board) => ({ tasks: board.tasks.map((t) => (t.id === id ? { ...t, done: true } : t)) }));
  call.resultJson({ ok: true });
}

function deleteTask(ctx: RunContext<Board>, id: number, parentMessageId: string): void {
  const call = ctx.toolCall("delete_task", { parentMessageId });
  call.argsJson({ id });
  call.updateState((board) => ({ tasks: board.tasks.filter((task) => task.id !== id) }));
  call.resultJson({ removed: id });
}

function clearBoard(ctx: RunContext<Board>, parentMessageId: string): void {
  const call = ctx.toolCall("clear_board", { parentMessageId });
  call.argsJson({});
  const removed = call.state.tasks.length;
  call.setState({ tasks: [] });
  call.resultJson({ removed });
}

function isApproval(payload: unknown): boolean {
  return typeof payload === "object" && payload !== null && (payload as { approved?: unknown }).approved === true; // narrowing an unknown JSON payload
}

/** The opening sentence: what the agent is about to do. */
function describe(commands: readonly Command[]): string {
  if (commands.length === 0) return `Nothing to do. ${HELP} `;
  const parts = commands.map((command) => {
    switch (command.kind) {
      case "add":
        return `add "${command.title}"`;
      case "done":
        return `complete task ${command.id}`;
      case "delete":
        return `delete task ${command.id} (once you confirm)`;
      case "today":
        return "tell you what is due today";
      case "research":
        return `ask the researcher about ${command.topic}`;
      case "count":
        return `count to ${command.to}`;
      case "clear":
        return "clear the board (after you approve)";
      case "list":
        return "list the board";
      case "unknown":
        return `puzzle over "${command.text}"`;
    }
  });
  return `On it: I will ${parts.join(", then ")}. `;
}

/** The researcher's deterministic notes. */
function notesOn(topic: string): string {
  return `Notes on ${topic}: what it is for, two sources that disagree, and one open question to follow up.`;
}

/** What the follow-up run says about one answered client call. */
function replyTo(answered: AnsweredCall, board: Board): string {
  const name = answered.call.function.name;
  if (name === GET_LOCAL_TIME) {
    const time = decodeAnswer(LocalTime, answered.answer);
    return E.isRight(time)
      ? `It is ${time.right.time} on ${time.right.date} where you are (${time.right.timeZone}, ${time.right.locale}). ${dueToday(time.right, board)}`
      : `I could not read your clock (${time.left}).`;
  }
  const task = taskOf(answered);
  const label = task === undefined ? "the task" : `task ${task.id} (${task.title})`;
  const answer = decodeAnswer(ConfirmDeleteAnswer, answered.answer);
  if (E.isLeft(answer)) return `Kept ${label}: ${answer.left}.`;
  return answer.right.confirmed ? `Deleting ${label}.` : `Kept ${label}, as you asked.`;
}

/** The task a confirmed `confirm_delete` call is about, or `undefined` (not that tool, not confirmed). */
function confirmedDeletion(answered: AnsweredCall): number | undefined {
  if (answered.call.function.name !== CONFIRM_DELETE) return undefined;
  const answer = decodeAnswer(ConfirmDeleteAnswer, answered.answer);
  return E.isRight(answer) && answer.right.confirmed ? taskOf(answered)?.id : undefined;
}

function taskOf(answered: AnsweredCall): ConfirmDeleteArgs | undefined {
  let args: unknown;
  try {
    args = JSON.parse(answered.call.function.arguments);
  } catch {
    return undefined;
  }
  const decoded = ConfirmDeleteArgs.decode(args);
  return E.isRight(decoded) ? decoded.right : undefined;
}

/** "Due today: 1. buy milk, 2. call mom." — the open tasks, for the day `time` names. */
function dueToday(time: LocalTime, board: Board): string {
  const open = board.tasks.filter((task) => !task.done);
  if (board.tasks.length === 0) return `Nothing is due on ${time.date}: the board is empty.`;
  if (open.length === 0) return `Nothing is due on ${time.date}: every task is done.`;
  return `Due today: ${open.map((task) => `${task.id}. ${task.title}`).join(", ")}.`;
}

/** The server's clock, in UTC, in the shape the page's clock answers. */
function serverTime(): LocalTime {
  const now = new Date().toISOString();
  return { date: now.slice(0, 10), time: now.slice(11, 16), timeZone: "UTC", locale: "en" };
}
