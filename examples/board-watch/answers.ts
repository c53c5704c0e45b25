/**
 * How board-watch answers an interrupt: from the command line (`--approve`, `--answer <id>=<json>`)
 * or from a reply typed at the terminal prompt. Pure: parsing and matching only.
 */
import type { Interrupt, ResumeEntry } from "../../src/protocol/outcomes";

/** What the command line says about answering interrupts. */
export interface AnswerPlan {
  /** `--approve`: resolve every interrupt with `{ "approved": true }`. */
  readonly approveAll: boolean;
  /** `--answer <id>=<json>`, in order; an id ending in `*` matches ids by prefix. */
  readonly answers: readonly { readonly id: string; readonly payload: unknown }[];
}

/** The arguments left once the flags are taken out, and the plan; or what was wrong. */
export type ParsedArgs =
  { readonly kind: "ok"; readonly positional: readonly string[]; readonly plan: AnswerPlan } | { readonly kind: "error"; readonly message: string };

/** The payload `--approve` and a "y" at the prompt send: what the task board's confirmation asks for. */
export const APPROVAL: unknown = { approved: true };
const REJECTION: unknown = { approved: false };

/**
 * Takes `--approve` and `--answer <id>=<json>` (also `--answer=<id>=<json>`) out of `argv`.
 *
 * @example
 * parseArgs(["http://h/", "clear", "--answer", 'approve-1={"approved":true}']);
 * // { kind: "ok", positional: ["http://h/", "clear"], plan: { approveAll: false, answers: [{ id: "approve-1", payload: { approved: true } }] } }
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const answers: { id: string; payload: unknown }[] = [];
  let approveAll = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--approve") approveAll = true;
    else if (arg === "--answer" || arg.startsWith("--answer=")) {
      const spec = arg === "--answer" ? argv[++i] : arg.slice("--answer=".length);
      if (spec === undefined) return { kind: "error", message: "--answer needs <id>=<json>" };
      const parsed = parseAnswer(spec);
      if (typeof parsed === "string") return { kind: "error", message: parsed };
      answers.push(parsed);
    } else positional.push(arg);
  }
  return { kind: "ok", positional, plan: { approveAll, answers } };
}

/** `<id>=<json>` → the answer, or a message saying what is wrong with it. */
function parseAnswer(spec: string): { id: string; payload: unknown } | string {
  const eq = spec.indexOf("=");
  if (eq <= 0) return `expected --answer <id>=<json>, got ${JSON.stringify(spec)}`;
  const id = spec.slice(0, eq);
  const json = spec.slice(eq + 1);
  try {
    return { id, payload: JSON.parse(json) };
  } catch (error) {
    return `expected the payload of --answer ${id} to be JSON, got ${JSON.stringify(json)} (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * The command line's answer to one interrupt: the first `--answer` whose id matches (exactly, or by
 * prefix for `id*`), else `--approve`'s approval, else `undefined` (ask, or give up).
 *
 * @example
 * answerFromPlan(plan, interrupt); // { interruptId: "approve-1", status: "resolved", payload: { approved: true } }
 */
export function answerFromPlan(plan: AnswerPlan, interrupt: Interrupt): ResumeEntry | undefined {
  const match = plan.answers.find(({ id }) => (id.endsWith("*") ? interrupt.id.startsWith(id.slice(0, -1)) : id === interrupt.id));
  if (match !== undefined) return { interruptId: interrupt.id, status: "resolved", payload: match.payload };
  if (plan.approveAll) return { interruptId: interrupt.id, status: "resolved", payload: APPROVAL };
  return undefined;
}

/** The question the terminal prompt asks. */
export function promptFor(interrupt: Interrupt): string {
  return `answer ${interrupt.id}: [y]es, [n]o, [c]ancel, or a JSON payload › `;
}

/**
 * A reply typed at the prompt: `y`/`yes` approves, `n`/`no` declines (`{ "approved": false }`),
 * `c`/`cancel` cancels the interrupt, anything else must be a JSON payload. `undefined` for a reply
 * that is none of these (the prompt asks again).
 *
 * @example
 * answerFromReply(interrupt, '{"approved":true,"note":"ok"}'); // resolved with that payload
 */
export function answerFromReply(interrupt: Interrupt, reply: string): ResumeEntry | undefined {
  const text = reply.trim();
  const lower = text.toLowerCase();
  if (lower === "y" || lower === "yes") return { interruptId: interrupt.id, status: "resolved", payload: APPROVAL };
  if (lower === "n" || lower === "no") return { interruptId: interrupt.id, status: "resolved", payload: REJECTION };
  if (lower === "c" || lower === "cancel") return { interruptId: interrupt.id, status: "cancelled" };
  try {
    return { interruptId: interrupt.id, status: "resolved", payload: JSON.parse(text) };
  } catch {
    return undefined;
  }
}
