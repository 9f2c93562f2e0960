import { isAddressText } from '@shared/domain/address'
import { decodeFunctionData } from 'viem'
import { APPROVAL_SELECTORS, approvalsAbi } from '@shared/domain/approvals'
import { APPROVAL_FOR_ALL_TOPIC, APPROVAL_TOPIC, topicAddress } from '@shared/domain/events'
import { txHash, type Transaction } from '@shared/domain/service-schemas'
import { isRecord } from '@shared/guards'

/**
 * One change an owner made to an approval, read from a call it sent or from a log:
 * - `set`: `approve(spender, amount)` (ERC-20, or ERC-721 with `amount` the token id when the
 *   token's kind is not known from a call: `approve` has one selector for both) and `permit`;
 * - `increase` / `decrease`: an ERC-20 allowance moved by `amount`;
 * - `operator`: `setApprovalForAll(spender, on)`;
 * - `nft`: an ERC-721 token's approval given to `spender` (the zero address clears it), from a log.
 */
export type ApprovalChange =
  | { op: 'set' | 'increase' | 'decrease'; amount: bigint }
  | { op: 'operator'; on: boolean }
  | { op: 'nft'; tokenId: bigint }

export interface ApprovalEvent {
  /** Lowercase token contract. */
  token: string
  /** Lowercase spender, operator or approved address. */
  spender: string
  change: ApprovalChange
  /** Where it was seen: a call the owner sent (or a permit it signed), or a log. */
  source: 'call' | 'log'
  via: GrantCall | 'log'
  tx: string
  block: number | null
  /** Order inside the block: the transaction's position for calls, the log index for logs. */
  index: number
  timestamp: string | null
}

const lower = (v: unknown): string | null => (isAddressText(v) ? v.toLowerCase() : null)

const big = (v: unknown): bigint | null => {
  if (typeof v === 'bigint') return v >= 0n ? v : null
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v)
  return null
}

const bool = (v: unknown): boolean | null =>
  typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : null

type Decoded = { name: string; args: readonly unknown[] }

/** The calls that grant or change an approval: the functions of `APPROVAL_SELECTORS`. */
export type GrantCall = keyof typeof APPROVAL_SELECTORS
export const GRANT_CALLS = Object.keys(APPROVAL_SELECTORS) as GrantCall[]
const NAMES = new Set<string>(GRANT_CALLS)

/** The call as the service decoded it, when it is one of ours with the expected parameters. */
function fromDecodedInput(tx: Transaction): Decoded | null {
  const d = tx.decoded_input
  if (!d) return null
  const name = d.method_call.split('(')[0]?.trim() ?? ''
  if (!NAMES.has(name)) return null
  return { name, args: d.parameters.map((p) => p.value) }
}

/** Only these inputs are decoded: a failed decoding throws, which is slow over thousands of other calls. */
const SELECTORS = new Set<string>(Object.values(APPROVAL_SELECTORS))

/** The call read from the raw input against the standard ABIs (a service that decoded nothing). */
function fromRawInput(tx: Transaction): Decoded | null {
  if (!SELECTORS.has(tx.raw_input.slice(0, 10).toLowerCase())) return null
  try {
    const d = decodeFunctionData({ abi: approvalsAbi, data: tx.raw_input as `0x${string}` })
    return { name: d.functionName, args: d.args ?? [] }
  } catch {
    return null
  }
}

function change(
  name: string,
  args: readonly unknown[],
  owner: string,
): { spender: string; change: ApprovalChange } | null {
  if (name === 'setApprovalForAll') {
    const spender = lower(args[0])
    const on = bool(args[1])
    return spender && on !== null ? { spender, change: { op: 'operator', on } } : null
  }
  if (name === 'permit') {
    // A permit is signed by the owner and sent by anyone: only one for this owner counts.
    if (lower(args[0]) !== owner) return null
    const spender = lower(args[1])
    const amount = big(args[2])
    return spender && amount !== null ? { spender, change: { op: 'set', amount } } : null
  }
  const spender = lower(args[0])
  const amount = big(args[1])
  if (!spender || amount === null) return null
  const op = name === 'approve' ? 'set' : name === 'increaseAllowance' ? 'increase' : 'decrease'
  return { spender, change: { op, amount } }
}

/**
 * Approval changes in transactions already loaded: calls the owner sent to a token that
 * succeeded (a reverted approve changed nothing), and permits for the owner sent by anyone.
 */
export function eventsFromTransactions(txs: readonly Transaction[], owner: string): ApprovalEvent[] {
  const me = owner.toLowerCase()
  const events: ApprovalEvent[] = []
  for (const tx of txs) {
    const token = lower(tx.to?.hash)
    if (!token || tx.result !== 'success') continue
    const call = fromDecodedInput(tx) ?? fromRawInput(tx)
    if (!call) continue
    if (call.name !== 'permit' && lower(tx.from.hash) !== me) continue
    const c = change(call.name, call.args, me)
    if (!c) continue
    events.push({
      token,
      ...c,
      source: 'call',
      via: call.name as ApprovalEvent['via'],
      tx: tx.hash.toLowerCase(),
      block: tx.block,
      index: tx.position ?? 0,
      timestamp: tx.timestamp,
    })
  }
  return events
}

/** A log as `eth_getLogs` returns it (the fields read here). */
interface RawLog {
  address?: unknown
  topics?: unknown
  data?: unknown
  blockNumber?: unknown
  logIndex?: unknown
  transactionHash?: unknown
  removed?: unknown
}

const hexNumber = (v: unknown): number | null =>
  typeof v === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(v) ? Number.parseInt(v.slice(2), 16) : null

const word = (data: unknown): bigint | null =>
  typeof data === 'string' && /^0x[0-9a-fA-F]{64}$/.test(data) ? BigInt(data) : null

/**
 * Approval changes in `Approval` / `ApprovalForAll` logs whose topic 1 is the owner. An
 * ERC-20 `Approval` has three topics and the allowance in its data; an ERC-721 one has four
 * (the token id indexed) and no data. Logs that fit neither shape are left out, not guessed, and
 * counted in `skipped` (a log removed by a reorganisation is left out uncounted): a value the
 * saved scan could not hold (a transaction hash that is not 32 bytes) is refused here, where it
 * enters, not found when the scan is saved (issue 43).
 */
export function readApprovalLogs(
  logs: readonly unknown[],
  owner: string,
): { events: ApprovalEvent[]; skipped: number } {
  const me = owner.toLowerCase()
  const events: ApprovalEvent[] = []
  let skipped = 0
  for (const item of logs) {
    const event = isRecord(item) && item.removed === true ? undefined : logEvent(item, me)
    if (event) events.push(event)
    else if (event === null) skipped++
  }
  return { events, skipped }
}

/** `readApprovalLogs`'s events alone. */
export const eventsFromLogs = (logs: readonly unknown[], owner: string): ApprovalEvent[] =>
  readApprovalLogs(logs, owner).events

/** One log's change, or null when it is not a well-formed approval log of `me`. */
function logEvent(item: unknown, me: string): ApprovalEvent | null {
  if (!isRecord(item)) return null
  const log = item as RawLog
  const token = lower(log.address)
  const topics = Array.isArray(log.topics) ? (log.topics as unknown[]) : []
  const tx = txHash.safeParse(log.transactionHash)
  if (!token || !tx.success || topicAddress(topics[1] as string) !== me) return null
  const spender = topicAddress(topics[2] as string)
  if (!spender) return null
  let c: ApprovalChange | null = null
  if (topics[0] === APPROVAL_TOPIC && topics.length === 3) {
    const amount = word(log.data)
    if (amount !== null) c = { op: 'set', amount }
  } else if (topics[0] === APPROVAL_TOPIC && topics.length === 4) {
    const tokenId = typeof topics[3] === 'string' ? word(topics[3]) : null
    if (tokenId !== null) c = { op: 'nft', tokenId }
  } else if (topics[0] === APPROVAL_FOR_ALL_TOPIC && topics.length === 3) {
    const on = word(log.data)
    if (on !== null) c = { op: 'operator', on: on !== 0n }
  }
  if (!c) return null
  return {
    token,
    spender,
    change: c,
    source: 'log',
    via: 'log',
    tx: tx.data.toLowerCase(),
    block: hexNumber(log.blockNumber),
    index: hexNumber(log.logIndex) ?? 0,
    timestamp: null,
  }
}
