/**
 * client-go's client-side rate limiter: a token bucket of --kube-api-qps tokens a second, at most
 * --kube-api-burst of them saved. A request without a token waits until one is due.
 * upstream: client-go util/flowcontrol/throttle.go (NewTokenBucketRateLimiter), rest/request.go tryThrottle.
 */
export interface TokenBucket { tokens: number; last: number; qps: number; burst: number }

export const newBucket = (c: { qps: number; burst: number; initialTokens?: number }): TokenBucket =>
  ({ tokens: c.initialTokens ?? c.burst, last: 0, qps: c.qps, burst: c.burst });

/** Take a token for a request sent at `atUs`: how long (µs) it must wait for it (0 when one is there). */
export function takeToken(b: TokenBucket, atUs: number): number {
  b.tokens = Math.min(b.burst, b.tokens + ((atUs - b.last) * b.qps) / 1_000_000);
  b.last = atUs;
  b.tokens -= 1;
  return b.tokens < 0 ? Math.ceil((-b.tokens / b.qps) * 1_000_000) : 0;
}
