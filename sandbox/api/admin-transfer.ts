import { z } from 'zod'
import { ADDRESS_PATTERN } from '@shared/domain/address'

/**
 * POST /__sandbox/transfer (only with --admin): moves funds to an address and mines the block
 * at once, so a client's "what changed" check has something to find without waiting for the
 * live chain. Native coin comes from a background account; tokens are minted by the deployer
 * (who owns the seed's token contracts), which emits the standard Transfer / TransferSingle
 * events with the address as the receiver, exactly as a transfer to it would.
 *
 *   { network, to, kind?: 'native' | 'erc20' | 'erc721' | 'erc1155', amount?: decimal string, after?: blocks }
 *   → 200 { hash, block, kind, token: address | null }
 *
 * Defaults: kind 'native'; amount 10^15 wei (native), 1 whole token (ERC-20), 1 item (ERC-1155);
 * an ERC-721 transfer mints a fresh token id. `router-split` sends the coin through the seed's
 * Router (`splitEther`), split between `to` and two counterparties: value moved internally,
 * traced live (a chain loaded from a saved state cannot trace the blocks it did not mine). `after` mines that many empty blocks first (a
 * client away for days comes back to a long gap: anvil mines them at once, and the index skips
 * them, as they hold nothing).
 */
export const transferKinds = ['native', 'erc20', 'erc721', 'erc1155', 'router-split'] as const
export type TransferKind = (typeof transferKinds)[number]

export const transferInputSchema = z.strictObject({
  network: z.string().min(1).max(40),
  to: z.string().regex(ADDRESS_PATTERN, 'to must be a 0x address of 40 hex digits'),
  kind: z.enum(transferKinds).optional(),
  amount: z
    .string()
    .regex(/^[1-9][0-9]{0,40}$/, 'amount must be a positive whole number in the smallest unit, as a decimal string')
    .optional(),
  /** Empty blocks mined first (one per slot of time), e.g. 300000 for a week of 2-second blocks away. */
  after: z.number().int().min(1).max(1_000_000).optional(),
})
export type TransferInput = z.infer<typeof transferInputSchema>

export interface TransferResult {
  hash: string
  block: number
  kind: TransferKind
  token: string | null
}

/** Filled by the app once the chains run: sends, mines and indexes one transfer. */
export type TransferHook = (input: TransferInput) => Promise<TransferResult>
