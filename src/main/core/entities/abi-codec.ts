import { isAddressText } from '@shared/domain/address'
import { decodeFunctionResult, encodeFunctionData, type AbiFunction, type AbiParameter } from 'viem'
import { isRecord } from '@shared/guards'
import { AppError } from '../util/app-error'

/**
 * The Read contract panel's codec: an ABI the user pasted or loaded (bounded, its names plain),
 * its view functions, typed inputs written as text encoded to calldata, and an `eth_call`'s
 * answer decoded to text. viem does the ABI encoding; this module reads and checks what the user
 * wrote (a number in range, an address, bytes of the right length) and names what was wrong.
 */

/** The largest ABI text read (a large verified contract's ABI is ~100 KB). */
const MAX_ABI_CHARS = 2_000_000
const MAX_ABI_ENTRIES = 5_000
/** Deepest nesting of arrays and tuples accepted in a parameter type or a typed input. */
const MAX_TYPE_DEPTH = 8
const MAX_ARRAY_ITEMS = 1_000
/** A Solidity identifier: no spaces, no invisible or format characters (a right-to-left override). */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,99}$/

const bad = (message: string): AppError => new AppError('invalid-input', message, { field: 'abi' })

/** The view and pure functions of an ABI text: a JSON array, or an artifact with an `abi` array. */
export function viewFunctions(text: string): AbiFunction[] {
  if (text.length > MAX_ABI_CHARS)
    throw bad(
      `The ABI is ${(text.length / 1e6).toFixed(1)} million characters; at most ${MAX_ABI_CHARS / 1e6} million are read.`,
    )
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw bad("The ABI is not valid JSON: paste the contract's ABI array (or its build artifact).")
  }
  const list = Array.isArray(raw) ? raw : isRecord(raw) && Array.isArray(raw.abi) ? raw.abi : null
  if (!list) throw bad('The ABI is neither a JSON array nor an artifact with an "abi" array.')
  if (list.length > MAX_ABI_ENTRIES)
    throw bad(`The ABI has ${list.length} entries; at most ${MAX_ABI_ENTRIES} are read.`)
  const out: AbiFunction[] = []
  list.forEach((entry, i) => {
    if (!isRecord(entry) || entry.type !== 'function') return
    const view = entry.stateMutability === 'view' || entry.stateMutability === 'pure' || entry.constant === true
    if (!view) return
    const name = entry.name
    if (typeof name !== 'string' || !IDENTIFIER.test(name))
      throw bad(
        `Entry ${i} of the ABI has a function name that is not a plain identifier (letters, digits, _ and $ only).`,
      )
    const where = `${name} (entry ${i})`
    out.push({
      type: 'function',
      name,
      stateMutability: entry.stateMutability === 'pure' ? 'pure' : 'view',
      inputs: params(entry.inputs, `the inputs of ${where}`),
      outputs: params(entry.outputs, `the outputs of ${where}`),
    })
  })
  return out
}

function params(raw: unknown, where: string, depth = 0): AbiParameter[] {
  if (raw === undefined) return []
  if (!Array.isArray(raw)) throw bad(`${where} are not a list.`)
  if (depth > MAX_TYPE_DEPTH) throw bad(`${where} nest tuples deeper than ${MAX_TYPE_DEPTH} levels.`)
  return raw.map((p, i) => {
    if (!isRecord(p) || typeof p.type !== 'string') throw bad(`Parameter ${i} of ${where} has no type.`)
    const name = typeof p.name === 'string' ? p.name : ''
    if (name !== '' && !IDENTIFIER.test(name))
      throw bad(`Parameter ${i} of ${where} has a name that is not a plain identifier.`)
    const type = p.type
    if (!/^(tuple|u?int\d{0,3}|address|bool|string|bytes\d{0,2}|function)((\[\d{0,6}\]){0,8})$/.test(type))
      throw bad(`Parameter ${i} of ${where} has an unknown type "${type.slice(0, 40)}".`)
    if (type.startsWith('tuple'))
      return { name, type, components: params(p.components, `the components of parameter ${i} of ${where}`, depth + 1) }
    return { name, type }
  })
}

/** A function's one-line signature, as the panel lists it: `balanceOf(address owner) view returns (uint256)`. */
export function signatureOf(fn: AbiFunction): string {
  const list = (ps: readonly AbiParameter[]): string =>
    ps.map((p) => [typeText(p), p.name].filter(Boolean).join(' ')).join(', ')
  const returns = fn.outputs.length > 0 ? ` returns (${list(fn.outputs)})` : ''
  return `function ${fn.name}(${list(fn.inputs)}) ${fn.stateMutability}${returns}`
}

function typeText(p: AbiParameter): string {
  if (!p.type.startsWith('tuple')) return p.type
  const components = 'components' in p ? p.components : []
  return `(${components.map(typeText).join(',')})${p.type.slice('tuple'.length)}`
}

/** Calldata for `fn` from the user's typed inputs (one text per input; arrays and tuples as JSON). */
export function encodeCall(fn: AbiFunction, texts: readonly string[]): `0x${string}` {
  if (texts.length !== fn.inputs.length)
    throw new AppError('invalid-input', `${fn.name} takes ${fn.inputs.length} inputs; ${texts.length} were given.`, {
      field: 'args',
    })
  const args = fn.inputs.map((p, i) => {
    const label = `input ${i + 1} (${p.name || 'unnamed'}, ${p.type})`
    try {
      return valueOf(p, fromText(p, texts[i]!), 0)
    } catch (error) {
      throw new AppError('invalid-input', `${label}: ${error instanceof Error ? error.message : String(error)}`, {
        field: 'args',
      })
    }
  })
  return encodeFunctionData({ abi: [fn], functionName: fn.name, args })
}

/** A typed input's text as JSON where the type is an array or a tuple, else as it is. */
function fromText(p: AbiParameter, text: string): unknown {
  if (!p.type.endsWith(']') && p.type !== 'tuple') return text
  try {
    return JSON.parse(text)
  } catch {
    throw new Error('write it as a JSON array, e.g. ["1", "2"]')
  }
}

function valueOf(p: AbiParameter, raw: unknown, depth: number): unknown {
  if (depth > MAX_TYPE_DEPTH) throw new Error(`nested deeper than ${MAX_TYPE_DEPTH} levels`)
  const array = /^(.*)\[(\d*)\]$/.exec(p.type)
  if (array) {
    if (!Array.isArray(raw)) throw new Error('expected a list')
    if (raw.length > MAX_ARRAY_ITEMS) throw new Error(`a list of at most ${MAX_ARRAY_ITEMS} items`)
    if (array[2] !== '' && raw.length !== Number(array[2])) throw new Error(`expected exactly ${array[2]} items`)
    const inner: AbiParameter = { ...p, type: array[1]! }
    return raw.map((v) => valueOf(inner, v, depth + 1))
  }
  if (p.type === 'tuple') {
    const components = 'components' in p ? p.components : []
    if (!Array.isArray(raw) || raw.length !== components.length)
      throw new Error(`expected a list of ${components.length} values (the tuple's fields in order)`)
    return raw.map((v, i) => valueOf(components[i]!, v, depth + 1))
  }
  return scalar(p.type, raw)
}

function scalar(type: string, raw: unknown): unknown {
  const text =
    typeof raw === 'string' ? raw.trim() : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : null
  if (text === null) throw new Error('expected a text value')
  const int = /^(u?)int(\d*)$/.exec(type)
  if (int) {
    if (!/^-?(\d{1,78}|0x[0-9a-fA-F]{1,64})$/.test(text))
      throw new Error(`"${text.slice(0, 40)}" is not a whole number`)
    const n = text.startsWith('-') ? -BigInt(text.slice(1)) : BigInt(text)
    const bits = BigInt(int[2] || '256')
    const [min, max] = int[1] ? [0n, 2n ** bits - 1n] : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n]
    if (n < min || n > max) throw new Error(`${n} is outside ${type}'s range ${min} to ${max}`)
    return n
  }
  if (type === 'address') {
    if (!isAddressText(text)) throw new Error('expected an address: 0x and 40 hex digits')
    return text.toLowerCase()
  }
  if (type === 'bool') {
    if (text !== 'true' && text !== 'false') throw new Error('expected true or false')
    return text === 'true'
  }
  if (type === 'string') return raw
  const bytes = /^bytes(\d*)$/.exec(type)
  if (bytes) {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(text)) throw new Error('expected hex bytes: 0x and pairs of hex digits')
    if (bytes[1] && (text.length - 2) / 2 !== Number(bytes[1])) throw new Error(`expected exactly ${bytes[1]} bytes`)
    return text.toLowerCase()
  }
  throw new Error(`${type} inputs are not supported`)
}

/** An `eth_call` answer decoded to text per output: numbers in decimal, addresses lowercase, lists as JSON. */
export function decodeResult(fn: AbiFunction, data: string): { name: string; type: string; value: string }[] {
  if (data === '0x' && fn.outputs.length > 0)
    throw new AppError('rpc', `${fn.name} answered nothing: the address may hold no contract, or not this function.`)
  let decoded: unknown
  try {
    decoded = decodeFunctionResult({ abi: [fn], functionName: fn.name, data: data as `0x${string}` })
  } catch (error) {
    throw new AppError(
      'protocol',
      `${fn.name}'s answer does not decode as its outputs (${fn.outputs.map((o) => o.type).join(', ')}).`,
      {
        data: error instanceof Error ? error.message.slice(0, 200) : undefined,
      },
    )
  }
  const values = fn.outputs.length === 1 ? [decoded] : (decoded as unknown[])
  return fn.outputs.map((o, i) => ({ name: o.name ?? '', type: o.type, value: textOf(values[i]) }))
}

/** The most characters of one decoded output shown (a data: URI can be megabytes). */
const MAX_OUTPUT_CHARS = 100_000
/** Controls and format characters (a right-to-left override) shown as escapes: the data, not a spoof. */
const HIDDEN = /[\p{Cc}\p{Cf}]/gu

function textOf(v: unknown): string {
  const text = plainText(v)
  const shown = text.replace(HIDDEN, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`)
  return shown.length > MAX_OUTPUT_CHARS
    ? `${shown.slice(0, MAX_OUTPUT_CHARS)}… (${shown.length.toLocaleString('en-US')} characters)`
    : shown
}

function plainText(v: unknown): string {
  if (typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'number') return String(v)
  if (typeof v === 'string') return /^0x[0-9a-fA-F]*$/.test(v) ? v.toLowerCase() : v
  return JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'bigint' ? x.toString() : typeof x === 'string' && /^0x[0-9a-fA-F]*$/.test(x) ? x.toLowerCase() : x,
  )
}
