/**
 * The ThreadStore contract suites (the same ones memoryStore and the one-server redisStore pass)
 * against `redisStore()` over a cluster client on a real Redis Cluster: runs, tails and stops; the
 * thread list, deletion and history pages (each owner's index in a slot of its own, its threads in
 * others); branches; the queue and steers; every thread's scripts within its one slot.
 */
import { describeBranches } from "../../server/store/branchesContract";
import { describeOwnedThreads } from "../../server/store/ownedThreadsContract";
import { describeQueueContract } from "../../server/store/queueContract";
import { describeThreadStore } from "../../server/store/threadStoreContract";
import { contractClusterStores } from "./support/clusterClients";

describeThreadStore("redisStore on a Redis Cluster", ...contractClusterStores("contract"));
describeOwnedThreads("redisStore on a Redis Cluster", ...contractClusterStores("owned"));
describeBranches("redisStore on a Redis Cluster", ...contractClusterStores("branches"));
describeQueueContract("redisStore on a Redis Cluster", ...contractClusterStores("queue"));
