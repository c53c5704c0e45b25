/** The ThreadStore contract suite against the embedded memory store. */
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { describeThreadStore } from "./threadStoreContract";

describeThreadStore("memoryStore", ({ clock, lease, maxRunsPerThread }) => memoryStore({ clock, lease, maxRunsPerThread }));
