import type { ApprovalKind } from '@shared/domain/approvals'
import type { ApprovalEvent } from './approval-events'
import { ZERO_ADDRESS } from '@shared/domain/contracts'

/** Where a change was made: the transaction, its block and time, and the call or log that said so. */
export interface GrantMark {
  tx: string
  block: number | null
  timestamp: string | null
  via: ApprovalEvent['via']
}

/**
 * One approval the owner has given at some point, as the events tell it: its latest grant (the
 * last change that gave something), the last change of any kind, and what the events alone say
 * it is now (`expected`: an ERC-20 allowance, null where an increase had no known base).
 */
export interface ApprovalCandidate {
  kind: ApprovalKind
  token: string
  spender: string
  /** The ERC-721 token of a single approval; for `erc20` with `maybeNft`, the id the approve named. */
  tokenId: bigint | null
  /**
   * An `approve` call on a token whose kind the app does not know: ERC-20 and ERC-721 share the
   * selector, so the state check asks both `allowance` and `getApproved` and the one that answers decides.
   */
  maybeNft: boolean
  grant: GrantMark | null
  last: GrantMark
  /** The last change cleared it (approve 0, setApprovalForAll false, an ERC-721 approval to the zero address). */
  clearedByOwner: boolean
  /** The amount last granted (ERC-20), e.g. to tell "spent" from "never granted". */
  granted: bigint | null
  expected: bigint | null
}

/** Token kinds the app knows (from balances and transfers): "ERC-20", "ERC-721", "ERC-1155". */
export type TokenKinds = ReadonlyMap<string, string>

function order(a: ApprovalEvent, b: ApprovalEvent): number {
  const ab = a.block ?? Number.MAX_SAFE_INTEGER
  const bb = b.block ?? Number.MAX_SAFE_INTEGER
  return ab - bb || a.index - b.index
}

/** An approval's identity: a single ERC-721 approval is its token id's, any other its spender's. */
function approvalKey(c: Pick<ApprovalCandidate, 'kind' | 'token' | 'spender' | 'tokenId'>): string {
  return c.kind === 'nft' ? `nft|${c.token}|${c.tokenId}` : `${c.kind}|${c.token}|${c.spender}`
}

function keyOf(e: ApprovalEvent, kinds: TokenKinds): { key: string; kind: ApprovalKind; tokenId: bigint | null } {
  const as = (kind: ApprovalKind, tokenId: bigint | null) => ({
    key: approvalKey({ kind, token: e.token, spender: e.spender, tokenId }),
    kind,
    tokenId,
  })
  const c = e.change
  if (c.op === 'operator') return as('operator', null)
  if (c.op === 'nft') return as('nft', c.tokenId)
  if (c.op === 'set' && e.via === 'approve' && kinds.get(e.token) === 'ERC-721') return as('nft', c.amount)
  return as('erc20', null)
}

/**
 * Folds changes into approvals, oldest first. A transaction whose logs were read counts by its
 * logs only: a log carries the allowance that resulted, where a call may be an increase whose
 * base is unknown, and both describe the same change. `from` are approvals folded earlier (a
 * scan's, saved part by part); the events go on from them, so they must all be newer. The
 * candidates in `from` are updated in place.
 */
export function foldApprovals(
  events: readonly ApprovalEvent[],
  kinds: TokenKinds,
  from: readonly ApprovalCandidate[] = [],
): ApprovalCandidate[] {
  const logged = new Set(events.filter((e) => e.source === 'log').map((e) => `${e.tx}|${e.token}`))
  const kept = events.filter((e) => e.source === 'log' || !logged.has(`${e.tx}|${e.token}`))
  const byKey = new Map<string, ApprovalCandidate>(from.map((c) => [approvalKey(c), c]))
  for (const e of [...kept].sort(order)) {
    const { key, kind, tokenId } = keyOf(e, kinds)
    const mark: GrantMark = { tx: e.tx, block: e.block, timestamp: e.timestamp, via: e.via }
    const c: ApprovalCandidate = byKey.get(key) ?? {
      kind,
      token: e.token,
      spender: e.spender,
      tokenId,
      maybeNft: false,
      grant: null,
      last: mark,
      clearedByOwner: false,
      granted: null,
      expected: 0n,
    }
    c.last = mark
    const ch = e.change
    if (ch.op === 'operator') {
      c.clearedByOwner = !ch.on
      if (ch.on) c.grant = mark
    } else if (ch.op === 'nft' || kind === 'nft') {
      c.spender = e.spender
      c.clearedByOwner = e.spender === ZERO_ADDRESS
      if (!c.clearedByOwner) c.grant = mark
    } else {
      const before = c.expected
      c.expected =
        ch.op === 'set'
          ? ch.amount
          : before === null
            ? null
            : ch.op === 'increase'
              ? before + ch.amount
              : before > ch.amount
                ? before - ch.amount
                : 0n
      c.clearedByOwner = c.expected === 0n
      if (ch.op !== 'decrease' && c.expected !== 0n) {
        c.grant = mark
        c.granted = c.expected
      }
      c.maybeNft = ch.op === 'set' && e.via === 'approve' && !kinds.has(e.token) && c.grant === mark
      if (c.maybeNft) c.tokenId = ch.amount
    }
    byKey.set(key, c)
  }
  return [...byKey.values()]
}
