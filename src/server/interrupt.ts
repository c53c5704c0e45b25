/** The interrupt builder (docs/rules.md#I2): one pending interrupt for an agent's interrupt outcome. */
import type { Interrupt } from "../protocol/outcomes";
import { randomIds } from "./ids";

/**
 * The fields of `interrupt()`: those of the wire `Interrupt`, with `id` optional and `expiresAt` also a `Date`.
 *
 * @example
 * const fields: InterruptFields = { reason: "confirmation", expiresAt: new Date(Date.now() + 60_000) };
 */
export type InterruptFields = Omit<Interrupt, "id" | "expiresAt"> & {
  readonly id?: string | undefined;
  readonly expiresAt?: string | Date | undefined;
};

/**
 * Builds one interrupt (docs/rules.md#I2). `id` defaults to a random UUID; `expiresAt` may be a `Date`
 * (sent as ISO-8601); absent members are left out, never sent as `null`. Inside a subagent, use
 * `sub.interrupt(…)`, which also sets `subagentRunId`.
 *
 * @example
 * interrupt({ reason: "tool_call", toolCallId: call.id, message: "Approve the transfer?" });
 */
export function interrupt(fields: InterruptFields, newId: () => string = randomIds): Interrupt {
  const out: Interrupt = { id: fields.id ?? newId(), reason: fields.reason };
  if (fields.message !== undefined) out.message = fields.message;
  if (fields.toolCallId !== undefined) out.toolCallId = fields.toolCallId;
  if (fields.responseSchema !== undefined) out.responseSchema = fields.responseSchema;
  if (fields.expiresAt !== undefined) {
    out.expiresAt = typeof fields.expiresAt === "string" ? fields.expiresAt : fields.expiresAt.toISOString();
  }
  if (fields.metadata !== undefined) out.metadata = fields.metadata;
  if (fields.subagentRunId !== undefined) out.subagentRunId = fields.subagentRunId;
  return out;
}
