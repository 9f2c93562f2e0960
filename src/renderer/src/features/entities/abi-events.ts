import { decodeEventLog, toEventSelector, type AbiEvent } from 'viem'
import type { DecodedLog, LogView } from '@shared/bridge/entity-types'
import { displayName } from '@shared/domain/display-name'
import { isRecord } from '@shared/guards'
import { withoutInvisible } from '@shared/domain/visible-text'

/** Most events read from one ABI (a large verified contract has a few dozen). */
const MAX_EVENTS = 2000
/** Most characters of one decoded value shown (the rest is said, not drawn). */
const MAX_VALUE_CHARS = 2000

/** The events of an ABI the user loaded, by their topic: what the Logs section decodes with them. */
export interface AbiEvents {
  /** Where the ABI came from, as the user named it (a file name, "pasted ABI"). */
  label: string
  byTopic: Map<string, AbiEvent>
}

/**
 * The events of an ABI text main already accepted (`entities.functions`: size, JSON, names).
 * An entry that does not make an event (no name, a type viem refuses) is left out, never guessed.
 */
export function abiEvents(text: string, label: string): AbiEvents {
  const byTopic = new Map<string, AbiEvent>()
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { label, byTopic }
  }
  const list = Array.isArray(raw) ? raw : isRecord(raw) && Array.isArray(raw.abi) ? raw.abi : []
  for (const entry of list) {
    if (byTopic.size >= MAX_EVENTS) break
    if (!isRecord(entry) || entry.type !== 'event' || typeof entry.name !== 'string' || !Array.isArray(entry.inputs))
      continue
    try {
      const event = entry as unknown as AbiEvent
      byTopic.set(toEventSelector(event).toLowerCase(), event)
    } catch {
      // Not an event viem can read: left out.
    }
  }
  return { label, byTopic }
}

/** A log decoded with the first loaded ABI that has its event; null when none has it or it does not fit. */
export function decodeWithAbis(log: LogView, abis: readonly AbiEvents[]): DecodedLog | null {
  const topic = log.topics[0]?.toLowerCase()
  if (!topic) return null
  for (const abi of abis) {
    const event = abi.byTopic.get(topic)
    if (!event) continue
    try {
      const decoded = decodeEventLog({
        abi: [event],
        topics: log.topics as [`0x${string}`, ...`0x${string}`[]],
        data: log.data as `0x${string}`,
        strict: true,
      })
      const args = decoded.args as Record<string, unknown> | unknown[] | undefined
      return {
        event: displayName(event.name) ?? '(unnamed event)',
        standard: abi.label,
        args: event.inputs.map((p, i) => ({
          name: displayName(p.name) ?? `#${i}`,
          value: valueText(Array.isArray(args) ? args[i] : p.name ? args?.[p.name] : undefined),
        })),
      }
    } catch {
      // This ABI's event does not fit the log (another contract's event of the same signature): try the next.
    }
  }
  return null
}

function valueText(v: unknown): string {
  const text =
    typeof v === 'string' || typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'number'
      ? String(v)
      : (JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? '')
  // Format characters go (a right-to-left override cannot reorder what is shown); an address stays an address.
  const shown = withoutInvisible(text)
  return shown.length > MAX_VALUE_CHARS ? `${shown.slice(0, MAX_VALUE_CHARS)}… (${shown.length} characters)` : shown
}
