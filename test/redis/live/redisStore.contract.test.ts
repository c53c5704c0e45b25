/** The ThreadStore contract suite against `redisStore()` on a real redis-server (the same suite memoryStore passes). */
import { describeThreadStore } from "../../server/store/threadStoreContract";
import { contractRedisStores } from "../support/contractStores";

describeThreadStore("redisStore", ...contractRedisStores("contract"));
