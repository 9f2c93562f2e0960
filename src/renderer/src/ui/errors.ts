import type { BridgeError, ErrorKind } from '@shared/bridge/errors'

/** What the user can do about an error. */
export type ErrorAction = 'retry' | 'fix-key' | 'saved-data' | 'work-online' | 'none'

export interface ErrorDescription {
  title: string
  /** Main's message is plain language and never carries the key; shown as is. */
  detail: string
  /** The way forward, in words. */
  hint: string
  actions: ErrorAction[]
  /** When a retry may succeed, in ms from when the error arrived. */
  retryAfterMs: number | null
}

const TEXT: Record<ErrorKind, { title: string; hint: string; actions: ErrorAction[] }> = {
  'invalid-input': {
    title: 'That input is not valid',
    hint: 'Correct the highlighted value and try again.',
    actions: ['none'],
  },
  auth: {
    title: 'The service refused the API key',
    hint: 'Check the key in Settings, paste it again and test it.',
    actions: ['fix-key'],
  },
  'rate-limited': {
    title: 'The service asked us to slow down',
    hint: 'Chainscope waits before trying again.',
    actions: ['retry'],
  },
  'quota-exhausted': {
    title: "Today's request quota is used up",
    hint: 'Saved copies stay available; new requests work again after the quota resets.',
    actions: ['saved-data', 'retry'],
  },
  offline: {
    title: 'The service cannot be reached',
    hint: 'Check the connection. Anything opened before is shown from saved copies.',
    actions: ['retry', 'saved-data'],
  },
  'offline-by-choice': {
    title: 'Work offline is on',
    hint: 'Nothing is sent to the service; saved copies are shown. Switch Work offline off to fetch this.',
    actions: ['work-online', 'saved-data'],
  },
  timeout: {
    title: 'The service did not answer in time',
    hint: 'It may be busy; try again in a moment.',
    actions: ['retry'],
  },
  server: {
    title: 'The service had a problem on its side',
    hint: 'This is usually temporary; try again in a moment.',
    actions: ['retry'],
  },
  protocol: {
    title: 'The service sent an answer Chainscope cannot read',
    hint: 'Nothing was changed. Try again; if it keeps happening the service may have changed its format.',
    actions: ['retry'],
  },
  rpc: { title: 'The node answered with an error', hint: 'Check the method and its parameters.', actions: ['none'] },
  keychain: {
    title: 'The system keychain could not be used',
    hint: 'Unlock the keychain, or keep the key for this session only (it is then forgotten when Chainscope quits).',
    actions: ['fix-key'],
  },
  'not-found': { title: 'Not found', hint: 'It may have been removed; reload the list.', actions: ['none'] },
  conflict: {
    title: 'That conflicts with existing data',
    hint: 'Choose another name or reload and try again.',
    actions: ['none'],
  },
  cancelled: { title: 'Cancelled', hint: 'Nothing more was loaded.', actions: ['retry'] },
  internal: {
    title: 'Something went wrong inside Chainscope',
    hint: 'The details are in the log. Try again.',
    actions: ['retry'],
  },
}

/** A typed error from main as a clear message and a way forward; unknown shapes stay readable. */
export function describeError(error: BridgeError): ErrorDescription {
  const text = TEXT[error.kind] ?? TEXT.internal
  const retryAfterMs = typeof error.retryAfterMs === 'number' && error.retryAfterMs >= 0 ? error.retryAfterMs : null
  let detail = typeof error.message === 'string' ? error.message : ''
  if (error.kind === 'rpc' && typeof error.code === 'number') detail = `Error ${error.code}: ${detail}`
  return { title: text.title, detail, hint: text.hint, actions: text.actions.filter((a) => a !== 'none'), retryAfterMs }
}

/** Seconds left before a retry, rounded up; 0 when it may be retried now. */
export function secondsUntil(readyAtMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((readyAtMs - nowMs) / 1000))
}
