/** A structured activity message (progress, a plan, a search): snapshots and patches under one id. */
import { ev } from "../../protocol/build";
import type { JsonPatchOperation } from "../../protocol/common";
import type { RunPort } from "../RunPort";
import { StateAccess } from "./StateAccess";

/**
 * Sends ACTIVITY_SNAPSHOT / ACTIVITY_DELTA for one activity message. Activities have no open or
 * close (docs/rules.md#R24): nothing is sent until the first `snapshot`, and nothing needs ending.
 *
 * @example
 * const progress = ctx.activity("progress");
 * progress.snapshot({ done: 0, total: 3 });
 * progress.delta([{ op: "replace", path: "/done", value: 1 }]);
 */
export class ActivityHandle<S = unknown> extends StateAccess<S> {
  /** Not for applications: made by `ctx.activity()`. */
  constructor(
    port: RunPort<S>,
    /** The activity message id (`messageId` on the wire). */
    readonly id: string,
    /** The activity type (`activityType` on the wire). */
    readonly type: string,
  ) {
    super(port);
  }

  /** Replaces the activity's content (or, with `replace: false`, sets it only if the message is new). */
  snapshot(content: Record<string, unknown>, options: { readonly replace?: boolean | undefined } = {}): this {
    this.port.emit(ev.activitySnapshot(this.id, this.type, content, options));
    return this;
  }

  /** Patches the activity's content (RFC 6902). */
  delta(patch: JsonPatchOperation[]): this {
    this.port.emit(ev.activityDelta(this.id, this.type, patch));
    return this;
  }
}
