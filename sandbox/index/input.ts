import { decodeFunctionData, getAddress, toFunctionSelector, type AbiFunction } from 'viem'
import { ARTIFACTS, CONTRACT_NAMES, type ContractName } from '../contracts/artifacts'
import type { DecodedInput } from './types'
import { isAddressText } from '@shared/domain/address'

/** Which artifact a creation (init) code was compiled from, by its bytecode prefix. */
export function artifactOfCreationCode(initCode: string): ContractName | null {
  const code = initCode.toLowerCase()
  for (const name of CONTRACT_NAMES) {
    if (code.startsWith(ARTIFACTS[name].bytecode.toLowerCase())) return name
  }
  return null
}

function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (isAddressText(value)) return getAddress(value)
  if (Array.isArray(value)) return value.map(jsonValue)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValue(v)]))
  return value
}

/**
 * The explorer-style `method` and `decoded_input` of a call. Only contracts whose source the
 * sandbox knows (its own artifacts, so "verified") are decoded; other calls show the 4-byte
 * selector as the method, and a plain transfer without data has neither.
 */
export function decodeInput(
  input: string,
  artifact: ContractName | null,
): { method: string | null; decoded: DecodedInput | null } {
  if (input.length < 10) return { method: null, decoded: null }
  const selector = input.slice(0, 10).toLowerCase()
  if (!artifact) return { method: selector, decoded: null }
  const abi = ARTIFACTS[artifact].abi
  try {
    const { functionName, args } = decodeFunctionData({ abi, data: input as `0x${string}` })
    const fn = abi.find(
      (item): item is AbiFunction =>
        item.type === 'function' && item.name === functionName && toFunctionSelector(item) === selector,
    )
    if (!fn) return { method: selector, decoded: null }
    const values = (args ?? []) as readonly unknown[]
    return {
      method: functionName,
      decoded: {
        method_call: `${fn.name}(${fn.inputs.map((p) => (p.name ? `${p.type} ${p.name}` : p.type)).join(', ')})`,
        method_id: selector.slice(2),
        parameters: fn.inputs.map((p, i) => ({ name: p.name ?? `arg${i}`, type: p.type, value: jsonValue(values[i]) })),
      },
    }
  } catch {
    return { method: selector, decoded: null }
  }
}
