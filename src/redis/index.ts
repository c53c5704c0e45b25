// The `agui-rx/redis` entry: the ThreadStore on Redis Streams (optional peer `redis` 5, node-redis),
// and the port it reaches Redis through, for another client's adapter.
export { redisStore, REDIS_STORE_DEFAULTS, type RedisStore, type RedisStoreOptions, type RedisStoreSettings, type RedisStoreStats } from "./redisStore";
export { nodeRedisPort, type NodeRedisClient, type NodeRedisCluster, type NodeRedisPortOptions } from "./nodeRedisPort";
export type { RedisPort, RedisConnection, OwnedConnection, OwnedSubscription, CommandRoute, ShardNotifications } from "./RedisPort";
export { threadKeys, signalChannel, DEFAULT_PREFIX, type ThreadKeys } from "./keys";
export type { ReplicaAcknowledgement } from "./replicaWait";
