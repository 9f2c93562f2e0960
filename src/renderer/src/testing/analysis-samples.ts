import { tokenTransferSchema, type TokenTransfer, type Transaction } from '@shared/domain/service-schemas'
import { makeTx, party } from '@shared/testing/service-samples'

/** Test support: token transfers in the shape the service sends (sandbox/api/format.ts). */
export const TOKENS = {
  usdc: { address: `0x${'c'.repeat(40)}`, symbol: 'USDC', decimals: '6', type: 'ERC-20' },
  weth: { address: `0x${'e'.repeat(40)}`, symbol: 'WETH', decimals: '18', type: 'ERC-20' },
  pts: { address: `0x${'d'.repeat(40)}`, symbol: 'PTS', decimals: '0', type: 'ERC-20' },
  art: { address: `0x${'a'.repeat(40)}`, symbol: 'ART', decimals: null, type: 'ERC-721' },
} as const

export function transfer(
  token: (typeof TOKENS)[keyof typeof TOKENS],
  from: string,
  to: string,
  value: string | { tokenId: string },
): TokenTransfer {
  const tokenId = typeof value === 'string' ? null : value.tokenId
  // Parsed like main parses it, so a sample is never a shape the app cannot receive.
  return tokenTransferSchema.parse({
    from: party(from),
    to: party(to),
    token: { ...token, name: `${token.symbol} token` },
    total:
      typeof value !== 'string' ? { token_id: tokenId, token_instance: null } : { value, decimals: token.decimals },
    type: 'token_transfer',
  })
}

let n = 100
/** A transaction at `minute` (minutes after 2026-01-01) with the given parties and value. */
export function tx(
  from: string,
  to: string | null,
  extra: Partial<Transaction> & { minute?: number } = {},
): Transaction {
  const { minute = 0, ...rest } = extra
  return makeTx(n++, {
    from: party(from),
    to: to === null ? null : party(to),
    value: '0',
    fee: { type: 'actual', value: '0' },
    timestamp: new Date(Date.UTC(2026, 0, 1) + minute * 60_000).toISOString().replace('Z', '000Z'),
    ...rest,
  })
}
