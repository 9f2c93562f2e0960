import type { Provenance } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { formatClock, parseTime } from '../ui/time'
import { servedForFailure } from './fetched'

/** What a line beside data shown despite a failure (or while working offline) is told. */
export interface StaleFacts {
  provenance: Provenance | null
  error: BridgeError | null
  /** When the first failure in a row was asked (ms), 0 when none; else `errorAt` is used. */
  failingSince: number
  errorAt: number
  /** Work offline is on (main's connectivity event). */
  workOffline: boolean
  /** When the built-in sandbox stopped (ISO), if it did. */
  sandboxStoppedAt: string | null
}

export interface StaleLine {
  kind: 'failure' | 'offline-by-choice'
  text: string
}

const WHAT: Partial<Record<BridgeError['kind'], string>> = {
  timeout: 'Service not answering',
  offline: 'Service not answering',
  server: 'Service failing',
  'rate-limited': 'Service asking to slow down',
  'quota-exhausted': "Today's quota used up",
}

/**
 * The one line said beside data still shown when it could not be refreshed: "Service not
 * answering since 07:33 · showing cached data from 07:31", or "Offline by choice · showing
 * cached data from 07:31" while Work offline is on (nothing was asked: not a failure). Null
 * when the data shown is as fresh as it claims. (docs/decisions/one-failure-line.md)
 */
export function staleLine(f: StaleFacts): StaleLine | null {
  const p = f.provenance
  const at = p ? formatClock(parseTime(p.checkedAt ?? p.fetchedAt)) : null
  const kept = p && p.source !== 'network' ? 'cached data' : 'the last answer'
  const showing = at ? `showing ${kept} from ${at}` : 'showing the last answer'
  if (f.workOffline || p?.staleReason === 'offline-by-choice' || f.error?.kind === 'offline-by-choice')
    return { kind: 'offline-by-choice', text: `Offline by choice · ${showing}` }
  const served = f.error ? null : servedForFailure(p)
  if (!f.error && !(served && f.failingSince)) return null
  // A stopped built-in sandbox is why nothing answers: say that, as the header does.
  const stopped = f.sandboxStoppedAt ? parseTime(f.sandboxStoppedAt) : null
  const since = stopped ?? (f.failingSince || f.errorAt || null)
  const cause = stopped ? 'Sandbox stopped' : ((f.error ? WHAT[f.error.kind] : served) ?? 'Could not refresh')
  return { kind: 'failure', text: `${cause} since ${formatClock(since)} · ${showing}` }
}
