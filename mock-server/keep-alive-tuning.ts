/**
 * Idle keep-alive connections: the advertised `Keep-Alive: timeout` and how long one is really held
 * (mock-server/keep-alive.ts). Apart from it so that the mock's public types need no Node types.
 */
export interface KeepAliveTuning {
  readonly advertisedSeconds: number;
  readonly holdMs: number;
}
