/** The owned-threads contract suite (owners, the list, deletion, history pages) against the embedded memory store. */
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { describeOwnedThreads } from "./ownedThreadsContract";

describeOwnedThreads("memoryStore", ({ clock, lease, maxRunsPerThread }) => memoryStore({ clock, lease, maxRunsPerThread }));
