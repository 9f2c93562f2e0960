import type { Address } from 'viem'
import type { PlanBuilder } from './plan-builder'
import type { Roles } from './roles'
import type { Erc20Key, TokenKey } from './tokens'

/**
 * Approvals worth seeing on the approvals tab, granted by the holder in the last blocks (so its
 * first page of transactions holds them, and the busy address's history is unchanged):
 * - unlimited (max uint256) to the Router for SGOV;
 * - 100 SDL to the Router, of which the Router then moves 40 (partly spent: 60 left);
 * - the Router as operator of every SPUNK (ERC-721) and SITEM (ERC-1155);
 * - one SPUNK (id 3) approved to a counterparty;
 * - 50 SBTC to a counterparty, then revoked (approve 0).
 */
export function addSeededApprovals(
  b: PlanBuilder,
  roles: Roles,
  tokens: Record<TokenKey, Address>,
  router: Address,
  unit: (key: Erc20Key) => bigint,
): void {
  const { holder, counterparties: cps } = roles
  const gas = 80_000n
  b.call(holder, tokens.sgov, 'SandboxToken', 'approve', [router, 2n ** 256n - 1n], {
    gas,
    label: 'holder approves router SGOV',
  })
  b.call(holder, tokens.sdl, 'SandboxToken', 'approve', [router, 100n * unit('sdl')], {
    gas,
    label: 'holder approves router 100 SDL',
  })
  b.call(holder, tokens.punk, 'SandboxCollectible', 'setApprovalForAll', [router, true], {
    gas,
    label: 'holder makes router operator of SPUNK',
  })
  b.call(holder, tokens.item, 'SandboxItems', 'setApprovalForAll', [router, true], {
    gas,
    label: 'holder makes router operator of SITEM',
  })
  b.call(holder, tokens.punk, 'SandboxCollectible', 'approve', [cps[1]!, 3n], {
    gas,
    label: 'holder approves SPUNK 3 to a counterparty',
  })
  b.call(holder, tokens.sbtc, 'SandboxToken', 'approve', [cps[2]!, 50n * unit('sbtc')], {
    gas,
    label: 'holder approves 50 SBTC to a counterparty',
  })
  b.endBlock()
  b.call(holder, router, 'Router', 'multiTransfer', [tokens.sdl, [cps[0]!], [40n * unit('sdl')]], {
    gas: 200_000n,
    label: 'router spends 40 of the holder SDL allowance',
  })
  b.call(holder, tokens.sbtc, 'SandboxToken', 'approve', [cps[2]!, 0n], {
    gas,
    label: 'holder revokes the SBTC approval',
  })
  b.endBlock()
}
