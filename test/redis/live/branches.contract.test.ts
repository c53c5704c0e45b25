/** The branches contract suite (forks, switches, reads after a switch) against `redisStore()` on a real redis-server: the same suite memoryStore passes. */
import { describeBranches } from "../../server/store/branchesContract";
import { contractRedisStores } from "../support/contractStores";

describeBranches("redisStore", ...contractRedisStores("branches"));
