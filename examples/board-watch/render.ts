/**
 * Prints a run's `Update`s as they arrive, for a terminal: message text streamed in place, tool
 * calls and results on their own lines, state changes as compact JSON Patch lines, subagents as
 * an indented group, interrupts, and each error on the line where it arrived.
 */
import type { Update } from "../../src/thread/Update";
import type { Message } from "../../src/protocol/messages";
import { diff } from "../../src/patch/diff";

/** Where the printer writes (process.stdout.write, or a string collector in tests). */
export type Write = (text: string) => void;

/** A function to call with each update; it keeps the line state between calls. */
export type UpdatePrinter = (update: Update<unknown>) => void;

/**
 * Makes a printer. `initialState` is the state before the run (the session's `rawState`), so the
 * first change prints as a patch against it.
 *
 * @example
 * const print = createUpdatePrinter((text) => process.stdout.write(text), session.rawState);
 * session.send("add milk").subscribe(print);
 */
export function createUpdatePrinter(write: Write, initialState?: unknown): UpdatePrinter {
  /** The message whose text is being written on the current (unfinished) line. */
  let openLine: string | undefined;
  let state = initialState;
  /** Messages whose line header was printed; a later line of the same message continues with "…". */
  const headed = new Set<string>();
  /** subagentRunId → name, for the group headers. */
  const subagents = new Map<string, string>();

  const endLine = (): void => {
    if (openLine !== undefined) write("\n");
    openLine = undefined;
  };
  const line = (text: string, message?: Message): void => {
    endLine();
    write(`${indent(message)}${text}\n`);
  };
  const indent = (message?: Message): string => (message !== undefined && subagentOf(message) !== undefined ? "  │ " : "");
  const speaker = (message: Message): string => {
    const sub = subagentOf(message);
    return sub !== undefined ? (subagents.get(sub) ?? "subagent") : message.role === "user" ? "you" : message.role;
  };

  return (update) => {
    switch (update.kind) {
      case "message": {
        const { message, change } = update;
        switch (change.kind) {
          case "started":
            // A message's line starts with its first text (the user's own message included: its
            // text comes as one `content` change), so interleaved messages (concurrent subagents)
            // never leave an empty header behind.
            break;
          case "content":
            if (openLine !== update.id) {
              endLine();
              write(`${indent(message)}${speaker(message)} ${headed.has(update.id) ? "…" : "›"} `);
              headed.add(update.id);
              openLine = update.id;
            }
            write(change.delta);
            break;
          case "ended":
            if (openLine === update.id) endLine();
            break;
          case "toolCallEnded": {
            const call = message.role === "assistant" ? message.toolCalls?.find((c) => c.id === change.toolCallId) : undefined;
            line(`  → ${call?.function.name ?? "tool"} ${JSON.stringify(change.args)}`, message);
            break;
          }
          case "toolResult":
            line(`  ← ${textOf(message)}`, message);
            break;
          case "activity":
            line(`  ◇ ${message.role === "activity" ? `${message.activityType} ${JSON.stringify(message.content)}` : "activity"}`, message);
            break;
          default:
            break; // tool call start/args: shown whole when the call ends
        }
        break;
      }
      case "state": {
        const patch = state === undefined ? [{ op: "replace", path: "", value: update.rawState }] : (diff(state, update.rawState) ?? []);
        state = update.rawState;
        for (const op of patch) line(`  state ${JSON.stringify(op)}`);
        break;
      }
      case "subagent": {
        const { subagent, change } = update;
        subagents.set(subagent.id, subagent.name);
        if (change === "started" || change === "resumed") {
          line(`  ┌ ${subagent.name} ${change}${subagent.description ? ` (${subagent.description})` : ""}`);
        } else {
          const detail = subagent.status.kind === "failed" ? `: ${subagent.status.message}` : "";
          line(`  └ ${subagent.name} ${change}${detail}`);
        }
        break;
      }
      case "reasoning":
        if (update.change.kind === "content") {
          if (openLine !== update.id) {
            endLine();
            write("  (thinking) ");
            openLine = update.id;
          }
          write(update.text);
        } else if (update.change.kind === "ended" && openLine === update.id) endLine();
        break;
      case "interrupt":
        line(`? ${update.interrupt.reason}: ${update.interrupt.message ?? ""} [${update.interrupt.id}]`);
        break;
      case "messages":
        line(`  (messages replaced: ${update.messages.length})`);
        break;
      case "error":
        line(`! ${update.error.kind}: ${update.error.message}`);
        break;
      case "done": {
        const end = update.end;
        line(
          end.kind === "success"
            ? "✓ done"
            : end.kind === "interrupted"
              ? `⏸ interrupted (${end.interrupts.length} waiting)`
              : end.kind === "cancelled"
                ? "■ cancelled"
                : `✗ failed: ${end.message}`,
        );
        break;
      }
      default:
        break;
    }
  };
}

function subagentOf(message: Message): string | undefined {
  return "subagentRunId" in message && typeof message.subagentRunId === "string" ? message.subagentRunId : undefined;
}

function textOf(message: Message): string {
  const content: unknown = "content" in message ? message.content : "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : "")).join("");
  return JSON.stringify(content);
}
