/**
 * A handler's latency in component tests. Used only under vi.useFakeTimers(): the test
 * advances the clock with advanceTimersByTimeAsync, nothing sleeps for real (docs/style.md rule 9).
 */
export function fakeLatency(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
