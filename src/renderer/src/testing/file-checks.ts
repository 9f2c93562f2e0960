import type { FakeBridge } from './fake-bridge'
import { FakeBridgeFailure } from './fake-bridge'

/**
 * Main's side of `files.check` for component tests: parts are gathered per id, and the whole
 * file is refused, as main refuses one holding the key, when it contains `refuse`. Returns the
 * files main was shown, whole, in the order their last part came.
 */
export function answerFileChecks(bridge: FakeBridge, refuse: string | null = null): string[] {
  const parts = new Map<string, string[]>()
  const files: string[] = []
  bridge.handle('files.check', ({ id, name, part, text, last }) => {
    const held = parts.get(id) ?? []
    if (part !== held.length) throw new Error(`part ${part} of ${name} came out of order`)
    held.push(text)
    parts.set(id, held)
    if (!last) return { checked: false }
    parts.delete(id)
    const file = held.join('')
    files.push(file)
    if (refuse !== null && file.includes(refuse))
      throw new FakeBridgeFailure({
        kind: 'invalid-input',
        message: `${name} was not saved: it holds the key.`,
        field: 'text',
      })
    return { checked: true }
  })
  return files
}
