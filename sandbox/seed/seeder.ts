import { toHex } from 'viem'
import type { RpcClient } from '../chain/rpc-client'
import type { SeedPlan } from './plan'

export interface SeedProgress {
  done: number
  total: number
}

export class SeedMismatchError extends Error {
  override name = 'SeedMismatchError'
  readonly kind = 'seed_mismatch'
  constructor(message: string) {
    super(`the chain did not follow the seed plan: ${message}`)
  }
}

/**
 * Replays a plan on a fresh anvil (no automine): per block, pin the base fee, send the
 * transactions in order, mine at the pinned timestamp, then check every receipt against the
 * plan so a wrong gas limit or amount stops the seed instead of silently changing history.
 */
export async function executePlan(
  rpc: RpcClient,
  plan: SeedPlan,
  onProgress: (p: SeedProgress) => void,
): Promise<void> {
  let done = 0
  let lastReport = 0
  for (const block of plan.blocks) {
    await rpc.call('anvil_setNextBlockBaseFeePerGas', [toHex(block.baseFee)])
    for (const tx of block.txs) {
      await rpc.call('eth_sendTransaction', [
        {
          type: '0x2',
          from: tx.from,
          ...(tx.to ? { to: tx.to } : {}),
          nonce: toHex(tx.nonce),
          value: toHex(tx.value),
          data: tx.data,
          gas: toHex(tx.gas),
          maxFeePerGas: toHex(tx.maxFeePerGas),
          maxPriorityFeePerGas: toHex(tx.maxPriorityFeePerGas),
        },
      ])
    }
    await rpc.call('evm_mine', [{ timestamp: block.timestamp }])
    const receipts = await rpc.call<{ status: string; transactionHash: string }[]>('eth_getBlockReceipts', ['latest'])
    if (receipts.length !== block.txs.length) {
      throw new SeedMismatchError(
        `block at ${block.timestamp} holds ${receipts.length} transactions, the plan has ${block.txs.length}`,
      )
    }
    block.txs.forEach((tx, i) => {
      const ok = receipts[i]!.status === '0x1'
      if (ok !== (tx.expect === 'ok')) {
        throw new SeedMismatchError(
          `"${tx.label}" (${receipts[i]!.transactionHash}) ${ok ? 'succeeded' : 'failed'}, expected ${tx.expect}`,
        )
      }
    })
    done += block.txs.length
    if (done - lastReport >= 200 || done === plan.totalTxs) {
      lastReport = done
      onProgress({ done, total: plan.totalTxs })
    }
  }
}
