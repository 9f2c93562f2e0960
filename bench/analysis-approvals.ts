/**
 * bench:analysis's `approvals` line: the Approvals tab of one address as main builds it over the
 * bench's cache (its pages' digests read from the snapshot store, the calls in them folded, the state
 * read from one aggregate answer). The provider is left out: the answer to the state call is
 * made once per shape and handed back at once, so the time is Chainscope's own work.
 */
import { encodeFunctionData } from 'viem'
import type { RpcBatchItem } from '@shared/bridge/contract'
import { approvalsAbi, MAX_UINT256 } from '@shared/domain/approvals'
import { ApprovalsService, type ApprovalsRuntime } from '../src/main/core/approvals/approvals-service'
import { ScanStore } from '../src/main/core/approvals/scan-store'
import type { SnapshotStore } from '../src/main/core/data/snapshot-store'
import { LogRanges } from '../src/main/core/service/log-range'
import type { RpcCallSpec } from '../src/main/core/service/service-types'
import { addr } from '../src/main/core/testing/address'

/** The spenders the bench's approve calls name: routers, as most approvals go to. */
export const SPENDERS = [1, 2, 3, 4, 5].map((n) => `0x${n.toString(16).padStart(40, '0')}`)

/** `approve(spender, amount)` input for the bench's i-th transaction: unlimited one time in four. */
export function approveInput(i: number): `0x${string}` {
  const amount = i % 4 === 0 ? MAX_UINT256 : 10n ** 18n * BigInt(i + 1)
  return encodeFunctionData({
    abi: approvalsAbi,
    functionName: 'approve',
    args: [SPENDERS[i % SPENDERS.length]! as `0x${string}`, amount],
  })
}

/** A 32-byte ABI word of `n`, as hex without 0x. */
const word = (n: bigint | number): string => BigInt(n).toString(16).padStart(64, '0')

/**
 * aggregate3's answer of `n` results, each a success with one word (an allowance or a balance of
 * 1,000 units of 18 decimals): `(bool, bytes)[]`, written out word by word, since a provider's
 * work is not Chainscope's (viem's encoder takes ~15 ms for 500 on a cold process).
 */
function aggregateAnswer(n: number): string {
  const head = [word(32), word(n)]
  // Each result is 4 words (success, offset of its bytes, their length, the word), after n offsets.
  for (let i = 0; i < n; i++) head.push(word(n * 32 + i * 128))
  const result = word(1) + word(64) + word(32) + word(10n ** 21n)
  return `0x${head.join('')}${result.repeat(n)}`
}

/** Every read answers one word (an allowance or a balance). */
function answerOf(call: RpcCallSpec, made: Map<number, string>): RpcBatchItem {
  const data = (call.params[0] as { data: `0x${string}` }).data
  // aggregate3's only argument is a dynamic array: after the selector, its offset, then its length.
  // Read there, not decoded: decoding 500 calls is ~60 ms of the provider's work, not Chainscope's.
  const n = Number.parseInt(data.slice(2 + 8 + 64, 2 + 8 + 128), 16)
  let result = made.get(n)
  if (result === undefined) {
    result = aggregateAnswer(n)
    made.set(n, result)
  }
  return { ok: true, result }
}

/**
 * One run of the view (resolves to its row count), over `snapshots` as a restart left them, by a
 * new service: its digests of pages are those saved under `dataDir`.
 */
export function approvalsView(snapshots: SnapshotStore, dataDir: string, owner: string): () => Promise<number> {
  const service = new ApprovalsService({
    snapshots,
    scans: new ScanStore(dataDir),
    watchlists: () => [],
    billing: () => 'request',
  })
  const made = new Map<number, string>()
  const runtime: ApprovalsRuntime = {
    profileId: 'p',
    client: {
      rpcCalls: async (_network, calls) => calls.map((c) => answerOf(c, made)),
      logs: new LogRanges(async () => []),
      unitsFor: () => 1,
    },
    balances: { route: () => 'multicall3', noteProbe: () => {} },
  }
  return async () => {
    const view = await service.view(runtime, 'alpha', addr(owner))
    if (view.stateError) throw new Error(`the bench's state answer was not read: ${view.stateError}`)
    return view.rows.length
  }
}
