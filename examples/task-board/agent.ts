/**
 * The task-board agent: a deterministic planner (no model, no network) that streams an assistant
 * message, edits the board through `add_task` / `complete_task` tool calls (publishing the state
 * once per change), delegates research to a `researcher` subagent inside a `research` step, and
 * asks for approval before clearing the board.
 */
import { interrupted, success, type Agent, type RunOutcome } from "../../src/server/Agent";
import type { RunContext } from "../../src/server/RunContext";
import type { MessageHandle } from "../../src/server/handles/MessageHandle";
import { boardSpec, nextTaskId, summarize, type Board } from "./board";
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
}

/** The interrupt reason the agent uses before clearing the board. */
export const CLEAR_REASON = "confirmation";

/** Interrupt ids look like `clear:<command index>:<run id>`, so the resumed run knows where to go on. */
const CLEAR_PREFIX = "clear:";

/**
 * Makes the task-board agent. Per run it reads the last user message as commands (`add <title>`,
 * `done <id>`, `research <topic>`, `clear`, `list`, separated by `;`):
 *
 * 1. streams a short assistant message saying what it is about to do;
 * 2. per `add`/`done`: a tool call (`add_task {title}` → `{id}`, `complete_task {id}` → `{ok}`)
 *    whose handle edits the board and publishes it while the call is open, so two additions send
 *    a STATE_SNAPSHOT and then a STATE_DELTA (seed 000: once per change, not once per run);
 * 3. per `research`: a `research` step in which a `researcher` subagent streams its notes;
 * 4. per `clear` on a non-empty board: ends the run with an interrupt (reason `confirmation`);
 *    the next run, resumed with `{ approved: true }`, clears the board (anything else keeps it)
 *    and then carries on with the commands after `clear`;
 * 5. says a one-line summary of the board.
 *
 * @example
 * const handler = createHandler(createTaskBoardAgent({ typingDelayMs: 30 }));
 */
export function createTaskBoardAgent(options: TaskBoardOptions = {}): Agent<Board> {
  const delay = options.typingDelayMs ?? 0;
  const researchDelay = options.researchDelayMs ?? delay;
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
      if (answer) {
        from = Number(answer.interruptId.split(":")[1]) + 1;
        const approved = answer.status === "resolved" && isApproval(answer.payload);
        await stream(intro, approved ? "Approved: clearing the board. " : "Not approved: the board stays as it is. ");
        if (approved) clearBoard(ctx, intro.id);
      } else {
        await stream(intro, describe(commands));
      }

      for (let index = from; index < commands.length; index++) {
        const command = commands[index];
        switch (command.kind) {
          case "add":
            addTask(ctx, command.title, intro.id);
            break;
          case "done":
            completeTask(ctx, command.id, intro.id);
            break;
          case "research":
            await ctx.step("research", async () => {
              const researcher = ctx.subagent("researcher", { description: "Looks up background on a topic", parentMessageId: intro.id });
              await stream(researcher.assistantMessage(), notesOn(command.topic), researchDelay);
              researcher.finish({ topic: command.topic });
            });
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
                message: `Clear all ${ctx.state.tasks.length} tasks from the board?`,
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
      case "research":
        return `ask the researcher about ${command.topic}`;
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
