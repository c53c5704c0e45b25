/** The queue contract suite (docs/queue.md#in-the-store) against `redisStore()` on a real redis-server: the same suite memoryStore passes. */
import { describeQueueContract } from "../../server/store/queueContract";
import { contractRedisStores } from "../support/contractStores";

describeQueueContract("redisStore", ...contractRedisStores("queue"));
