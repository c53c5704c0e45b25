/**
 * Unrecognised material (AG-UI 1.1 processing model): how the codecs strip what the protocol does
 * not describe, and how they record what they removed. Decoding stays apart from reporting, as in
 * io-ts: the record (`StripReport`) travels in the validation context's root entry, which io-ts
 * hands on to every member's context, so each codec finds the report of its own decode there and
 * no state outlives a decode. A validation whose root carries no report strips silently.
 *
 * The rules (`/spec/1.1/basic/processing`): a property an object does not declare is removed; a
 * union member or enum value that is not known (a string the schema does not name) is removed where
 * it stands when that position is optional, takes its containing value with it when the position is
 * required, and is dropped from a list that holds it. A malformed known value (a number where a
 * string belongs, a missing tag) is not unrecognised material: it stays a decode failure.
 */
import * as t from "io-ts";

/**
 * What a codec returns (as a successful value) for a value it does not recognise: the container
 * decides whether that removes a member, a list element, or the container itself.
 */
export const UNRECOGNISED: unique symbol = Symbol("agui-rx: unrecognised material");

/**
 * One piece of material decoding removed.
 *
 * @example
 * const stripped: Stripped = { code: "unknown-property", path: "/vendorField", reason: 'TEXT_MESSAGE_CONTENT has no member "vendorField"' };
 */
export interface Stripped {
  /** `unknown-property`: a member the object does not declare; `unknown-member`: an unrecognised union member or enum value. */
  readonly code: "unknown-property" | "unknown-member";
  /** JSON Pointer of what was removed, from the decoded value's root (`""`: the value itself). */
  readonly path: string;
  /** Why, naming the unrecognised value and where it sat. */
  readonly reason: string;
}

/**
 * What one decode records: what it stripped, in order, and the innermost unrecognised value of the
 * removal under way (set where it is met, read where it is removed). Created per decode by
 * `collectStripped` (and by a recognising codec's `decode`), reached through the context.
 *
 * @example
 * const report = new StripReport();
 * Event.validate(json, [{ key: "", type: Event, actual: json, report }]);
 * report.stripped; // what was removed
 */
export class StripReport {
  readonly stripped: Stripped[] = [];
  cause: { readonly path: string; readonly what: string } | undefined = undefined;
}

/** The root entry of a reporting validation: an io-ts context entry that also carries the report. */
interface ReportingEntry extends t.ContextEntry {
  readonly report: StripReport;
}

/** The root context of a validation of `input` by `codec` that records into `report`. */
function reportingContext(codec: t.ContextEntry["type"], input: unknown, report: StripReport): t.Context {
  const root: ReportingEntry = { key: "", type: codec, actual: input, report };
  return [root];
}

/** The report of the decode `context` belongs to (its root entry's), if that decode records. */
function reportOf(context: t.Context): StripReport | undefined {
  const root = context[0];
  if (root === undefined || !("report" in root)) return undefined;
  return root.report instanceof StripReport ? root.report : undefined;
}

/** What `collectStripped` returns. */
export interface Collected<R> {
  readonly result: R;
  /** Everything removed, in the order it was met. */
  readonly stripped: readonly Stripped[];
  /** When the decoded value as a whole was unrecognisable (e.g. an event dropped whole): why. */
  readonly dropped: string | undefined;
}

/**
 * Validates `input` with `codec` and returns the result with everything the codecs stripped, in
 * order. The report is this decode's own (passed down in the context), so decodes never share one.
 *
 * @example
 * const { result, stripped, dropped } = collectStripped(Event, json);
 */
export function collectStripped<A>(codec: t.Decoder<unknown, A>, input: unknown): Collected<t.Validation<A>> {
  const report = new StripReport();
  const result = codec.validate(input, reportingContext(codec, input, report));
  const dropped = result._tag === "Right" && isUnrecognised(result.right) ? describeCause(report, "") : undefined;
  return { result, stripped: report.stripped, dropped };
}

/** Why the value at `removed` is being removed: the innermost unrecognised value met last. */
function describeCause(report: StripReport, removed: string): string {
  const cause = report.cause;
  if (cause === undefined) return "it holds unrecognised material";
  return cause.path === removed ? cause.what : `${cause.path === "" ? "the value" : cause.path} holds ${cause.what}`;
}

/** Whether a decoded value is the UNRECOGNISED marker. */
export function isUnrecognised(value: unknown): value is typeof UNRECOGNISED {
  return value === UNRECOGNISED;
}

/**
 * A successful validation carrying the marker. A codec boundary: the marker stands in for a value
 * of type A that does not exist, and every container of this module checks for it before using the
 * value, so it never reaches a caller of `decode` (see `guardDecode`).
 */
export function unrecognised<A>(context: t.Context, what: string): t.Validation<A> {
  const report = reportOf(context);
  if (report !== undefined) report.cause = { path: pointerOf(context), what };
  return t.success(UNRECOGNISED as unknown as A); // see the doc comment: the marker never escapes the codecs
}

/**
 * The marker for a container whose required member was unrecognisable; unlike `unrecognised`, it
 * keeps the cause that member recorded, which is what the removal reports.
 */
export function propagate<A>(): t.Validation<A> {
  return t.success(UNRECOGNISED as unknown as A); // as in `unrecognised`: the marker never escapes the codecs
}

/**
 * Remembers the current cause; the returned function puts it back. A container whose required
 * member was unrecognised calls it before validating its other members, whose own unrecognised
 * values would otherwise take the place of the cause its removal reports.
 */
export function keepCause(context: t.Context): () => void {
  const report = reportOf(context);
  const kept = report?.cause;
  return () => {
    if (report !== undefined) report.cause = kept;
  };
}

/** How much this decode has recorded, to roll back to when what is recorded since turns out to be moot. */
export function strippedMark(context: t.Context): number {
  return reportOf(context)?.stripped.length ?? 0;
}

/** Forgets what this decode recorded after `mark` (a failed branch, or a value that is removed whole). */
export function rollBack(context: t.Context, mark: number): void {
  const stripped = reportOf(context)?.stripped;
  if (stripped !== undefined && stripped.length > mark) stripped.length = mark;
}

/** Records an unknown property at `path` (a member of the object `context` validates). */
export function noteUnknownProperty(context: t.Context, path: string, owner: string, key: string): void {
  reportOf(context)?.stripped.push({ code: "unknown-property", path, reason: `${owner} has no member ${JSON.stringify(key)}` });
}

/** Records the removal of the value `context` validates, because of the unrecognised value met last. */
export function noteRemoved(context: t.Context): void {
  const report = reportOf(context);
  if (report === undefined) return;
  const path = pointerOf(context);
  report.stripped.push({ code: "unknown-member", path, reason: describeCause(report, path) });
}

/**
 * The JSON Pointer of a validation context: the member names and indices from the root, leaving
 * out the plumbing entries io-ts adds (a `t.union`'s member index).
 *
 * @example
 * pointerOf(context) // "/messages/2/content/0"
 */
export function pointerOf(context: t.Context): string {
  let out = "";
  for (let i = 1; i < context.length; i++) {
    const parentTag = (context[i - 1].type as { _tag?: string })._tag; // io-ts tags its built-in codecs; the tag is the only way to tell
    if (parentTag === "UnionType" || context[i].key === "") continue;
    out += `/${context[i].key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  }
  return out;
}

/**
 * An io-ts type whose `decode` never returns the marker: a value unrecognisable as a whole is a
 * failure there ("expected a recognisable …, but …"), for callers that decode one value directly.
 * `decode` is a method of the class (io-ts binds it per instance), never a property written over.
 * Its validation records into a report of its own, which only that message reads.
 *
 * @example
 * const Role = new RecognisingType<Role, string, unknown>("Role", isRole, validateRole, String);
 * Role.decode("ghost"); // left: expected a recognisable Role, but unknown value "ghost" …
 */
export class RecognisingType<A, O = A, I = unknown> extends t.Type<A, O, I> {
  override decode(input: I): t.Validation<A> {
    const report = new StripReport();
    const context = reportingContext(this, input, report);
    const result = this.validate(input, context);
    if (result._tag === "Right" && isUnrecognised(result.right)) {
      // The failure's context is the plain root, as io-ts's own decode would give it.
      return t.failure(input, [{ key: "", type: this, actual: input }], `expected a recognisable ${this.name}, but ${describeCause(report, "")}`);
    }
    return result;
  }
}
