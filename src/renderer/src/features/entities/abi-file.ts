import { ABI_MAX_CHARS, type KnownInterface } from '@shared/bridge/entity-calls'
import type { ContractFunction } from '@shared/bridge/entity-types'
import type { BridgeError } from '@shared/bridge/errors'
import { displayName } from '@shared/domain/display-name'

/**
 * An ABI file as text, or why it was not read: one larger than an ABI can be (main takes at most
 * ABI_MAX_CHARS characters) is refused before a byte of it is read, so a 50 MB file never
 * freezes the window. What is in it (JSON, function names) main checks and names.
 */
export async function readAbiFile(file: File): Promise<{ text: string } | { error: BridgeError }> {
  const name = displayName(file.name) ?? 'The file'
  if (file.size > ABI_MAX_CHARS)
    return {
      error: {
        kind: 'invalid-input',
        message: `“${name}” is ${(file.size / 1e6).toFixed(1)} MB; an ABI file is at most ${ABI_MAX_CHARS / 1e6} MB. Choose the contract's ABI (a JSON array) or its build artifact.`,
      },
    }
  try {
    return { text: await file.text() }
  } catch {
    return { error: { kind: 'invalid-input', message: `“${name}” could not be read: choose the file again.` } }
  }
}

/** The functions the Read contract panel offers, and where they came from (exactly one of the two). */
export interface AbiChoice {
  abi?: string
  standard?: KnownInterface
  functions: ContractFunction[]
}
