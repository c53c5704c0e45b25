/** The wire bodies of `POST {url}/threads/{threadId}/path` (docs/threads.md#branches-on-the-wire): which sibling to show, and what the switch did. */
import * as t from "io-ts";
import { struct } from "../protocol/codec";
import type { NamedStructCodec } from "../protocol/namedCodec";

const BranchSelectionCodec = /* @__PURE__ */ struct("BranchSelection", { messageId: t.string, index: t.number }, {});
/**
 * The body of `POST {url}/threads/{threadId}/path`: show sibling `index` (from 0, in the order the
 * siblings were made) of the group that `messageId`, a message of the selected path, belongs to.
 *
 * @example
 * const body: BranchSelection = { messageId: "a2", index: 0 };
 */
export interface BranchSelection extends t.TypeOf<typeof BranchSelectionCodec> {}
export const BranchSelection: NamedStructCodec<BranchSelection> = BranchSelectionCodec;

const BranchSelectedCodec = /* @__PURE__ */ struct("BranchSelected", { result: t.keyof({ switched: null, unchanged: null }) }, {});
/**
 * The 200 answer of `POST {url}/threads/{threadId}/path`: `switched` (the selected path changed:
 * read the thread again) or `unchanged` (that sibling was already shown).
 *
 * @example
 * const answer: BranchSelected = { result: "switched" };
 */
export interface BranchSelected extends t.TypeOf<typeof BranchSelectedCodec> {}
export const BranchSelected: NamedStructCodec<BranchSelected> = BranchSelectedCodec;
