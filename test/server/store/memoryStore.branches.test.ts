/** The branches contract suite (forks, switches, reads after a switch) against the embedded memory store. */
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { describeBranches } from "./branchesContract";

describeBranches("memoryStore", ({ clock, lease, maxRunsPerThread }) => memoryStore({ clock, lease, maxRunsPerThread }));
