/**
 * What main knows of the service's endpoints from the outcome of real calls
 * (docs/architecture.md "Connection truth"): one record per network and endpoint, pushed as the
 * `connectivity` event. The header and every "as of" read it; main's circuit breaker reads the
 * same records.
 */

/** The service's two endpoints: the data API (REST) and the JSON-RPC endpoint. */
export type ConnectionEndpoint = 'data' | 'rpc'

/**
 * - `unknown`: no call has been made yet this session;
 * - `answering`: the last call got an answer (`lastSuccessAt`);
 * - `not-answering`: calls time out or fail to connect, or the service fails (5xx) since `since`;
 *   `nextRetryAt` is when the one probe may go (null while no probe is scheduled);
 * - `refused`: the service refuses the key or the plan (401/403) since `since`;
 * - `quota`: the daily quota is used up until `until`;
 * - `offline-by-choice`: the user switched "Work offline" on: nothing is sent.
 */
export type ConnectionStateName = 'unknown' | 'answering' | 'not-answering' | 'refused' | 'quota' | 'offline-by-choice'

export interface EndpointConnection {
  network: string
  endpoint: ConnectionEndpoint
  state: ConnectionStateName
  /** ISO time of the last call that got an answer, in any state. */
  lastSuccessAt: string | null
  /** ISO time the current state began (`not-answering`, `refused`). */
  since: string | null
  /** ISO time the next probe may be sent (`not-answering`). */
  nextRetryAt: string | null
  /** ISO time the quota resets (`quota`). */
  until: string | null
  /** The last failure in plain words (never the key or the URL). */
  reason: string | null
}

export interface ConnectionView {
  /** The profile these records are of (the active one); null when none is active. */
  profileId: string | null
  /** The "Work offline" switch (a saved setting). */
  workOffline: boolean
  /**
   * The active profile is the built-in sandbox and it is stopped (by the user, or it died):
   * nothing can answer until it is started again. Null otherwise.
   */
  sandboxStopped?: { at: string; unexpected: boolean } | null
  endpoints: EndpointConnection[]
}
