/**
 * Small UI preferences and history in localStorage. Never secrets: the key stays in main.
 * A missing, foreign or corrupt value yields the fallback; storage failures are ignored
 * (a full or disabled storage must not break a view).
 */
export function readStored<T>(key: string, accept: (value: unknown) => T | null, fallback: T): T {
  try {
    const text = globalThis.localStorage?.getItem(key)
    if (text === null || text === undefined) return fallback
    return accept(JSON.parse(text)) ?? fallback
  } catch {
    return fallback
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value))
  } catch {
    // Quota or privacy mode: keep working without persistence.
  }
}

export { isRecord } from '@shared/guards'
