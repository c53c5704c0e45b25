/** The configuration of one multi-instance test server (`instanceMain.ts`), passed as JSON in `AGUI_INSTANCE`. */
export interface InstanceConfig {
  /** `CLIENT SETNAME` of its command connection, so that `CLIENT LIST` tells instances apart. */
  readonly name: string;
  readonly redisUrl: string;
  readonly prefix: string;
  readonly leaseMs?: number;
  readonly timeoutMs?: number;
  readonly typingDelayMs?: number;
  readonly researchDelayMs?: number;
  /** How often a waiting message's stream reads its queue again (`HandlerOptions.queueRecheckMs`). */
  readonly queueRecheckMs?: number;
  /** Loopback port; 0 or absent picks a free one. */
  readonly port?: number;
}
