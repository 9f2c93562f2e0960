import type { BridgeError } from '@shared/bridge/errors'
import { FILE_CHECK_PART_CHARS } from '@shared/bridge/file-check'
import { bridge } from './bridge'

/**
 * Has main check a file's final text for the API key (the renderer never knows it), in parts
 * the bridge carries. Null when main found none; else why the file may not be offered: it
 * holds the key (main says so in words) or main could not be asked.
 * See docs/decisions/file-exit-check.md.
 */
export async function checkedByMain(name: string, text: string): Promise<BridgeError | null> {
  const id = randomId()
  const parts = partsOf(text)
  for (const [part, slice] of parts.entries()) {
    const last = part === parts.length - 1
    const r = await bridge.invoke('files.check', { id, name, part, text: slice, last })
    if (!r.ok) return r.error
    if (last) return r.value.checked ? null : { kind: 'internal', message: `${name} was not checked; try again.` }
  }
  return { kind: 'internal', message: `${name} was not checked; try again.` }
}

/** A text cut into the parts the bridge carries (at least one; a surrogate pair stays whole). */
export function partsOf(text: string): string[] {
  const parts: string[] = []
  let at = 0
  do {
    let end = Math.min(text.length, at + FILE_CHECK_PART_CHARS)
    if (end < text.length && /[\uDC00-\uDFFF]/.test(text.charAt(end))) end--
    parts.push(text.slice(at, end))
    at = end
  } while (at < text.length)
  return parts
}

/**
 * Saves text as a file through the browser's download (Electron shows its save dialog), once
 * main has checked it (`checkedByMain`): the one way the renderer writes a file. Null when the
 * download was offered; else the error to show, and nothing was offered.
 */
export async function saveText(filename: string, mime: string, text: string): Promise<BridgeError | null> {
  const problem = await checkedByMain(filename, text)
  if (problem) return problem
  const blob = new Blob([text], { type: `${mime};charset=utf-8` })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  a.rel = 'noopener'
  document.body.appendChild(a)
  a.click()
  a.remove()
  // Give the download a moment to start before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
  return null
}

export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
