/** The owned-threads contract suite (owners, the list, deletion, history pages) against `redisStore()` on a real redis-server: the same suite memoryStore passes. */
import { describeOwnedThreads } from "../../server/store/ownedThreadsContract";
import { contractRedisStores } from "../support/contractStores";

describeOwnedThreads("redisStore", ...contractRedisStores("owned"));
