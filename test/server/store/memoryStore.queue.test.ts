/** The queue contract suite (docs/queue.md#in-the-store) against the embedded memory store. */
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { describeQueueContract } from "./queueContract";

describeQueueContract("memoryStore", ({ clock, lease, maxRunsPerThread }) => memoryStore({ clock, lease, maxRunsPerThread }));
