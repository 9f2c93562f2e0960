import { encodeAbiParameters, encodeFunctionData, pad, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { approvalsAbi, MAX_UINT256 } from '@shared/domain/approvals'
import { addressTopic, APPROVAL_FOR_ALL_TOPIC, APPROVAL_TOPIC } from '@shared/domain/events'
import { makeTx, ME, OTHER, party } from '@shared/testing/service-samples'
import { eventsFromLogs, eventsFromTransactions, readApprovalLogs } from './approval-events'
import { foldApprovals } from './approval-fold'

const TOKEN = '0x00000000000000000000000000000000000000aa'
const NFT = '0x00000000000000000000000000000000000000cc'
const ROUTER = '0x00000000000000000000000000000000000000bb'
const RELAYER = '0x00000000000000000000000000000000000000dd'

/** A transaction ME sent to `to` with `data` as input, mined in `block`. */
function call(i: number, to: string, data: `0x${string}`, extra: Parameters<typeof makeTx>[1] = {}) {
  return makeTx(i, { from: party(ME), to: party(to), raw_input: data, block: 100 + i, position: 0, ...extra })
}
const approve = (spender: string, value: bigint) =>
  encodeFunctionData({ abi: approvalsAbi, functionName: 'approve', args: [spender as `0x${string}`, value] })

function log(block: number, index: number, topics: string[], data = '0x', address = TOKEN) {
  return {
    address,
    topics,
    data,
    blockNumber: toHex(block),
    logIndex: toHex(index),
    transactionHash: `0x${(block * 1000 + index).toString(16).padStart(64, '0')}`,
    removed: false,
  }
}
const word = (n: bigint) => encodeAbiParameters([{ type: 'uint256' }], [n])

describe('approvals from decoded calls', () => {
  it('reads approve from decoded_input, and from raw_input when the service decoded nothing', async () => {
    const decoded = call(1, TOKEN, '0x', {
      decoded_input: {
        method_call: 'approve(address spender, uint256 value)',
        method_id: '0x095ea7b3',
        parameters: [
          { name: 'spender', type: 'address', value: ROUTER },
          { name: 'value', type: 'uint256', value: MAX_UINT256.toString() },
        ],
      },
    })
    const raw = call(2, NFT, approve(OTHER, 500n))
    const events = eventsFromTransactions([decoded, raw], ME)
    expect(events.map((e) => [e.token, e.spender, e.change])).toEqual([
      [TOKEN, ROUTER, { op: 'set', amount: MAX_UINT256 }],
      [NFT, OTHER, { op: 'set', amount: 500n }],
    ])
    expect(events[0]).toMatchObject({ source: 'call', via: 'approve', block: 101, tx: decoded.hash })
  })

  it('skips failed calls, calls others sent, and permits for someone else; keeps a permit for the owner sent by anyone', async () => {
    const permit = (owner: string) =>
      encodeFunctionData({
        abi: approvalsAbi,
        functionName: 'permit',
        args: [owner as `0x${string}`, ROUTER, 77n, 0n, 27, pad('0x01'), pad('0x02')],
      })
    const txs = [
      call(1, TOKEN, approve(ROUTER, 5n), { result: 'Reverted' }),
      call(2, TOKEN, approve(ROUTER, 5n), { from: party(OTHER) }),
      call(3, TOKEN, permit(OTHER), { from: party(RELAYER) }),
      call(4, TOKEN, permit(ME), { from: party(RELAYER) }),
    ]
    const events = eventsFromTransactions(txs, ME)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ via: 'permit', spender: ROUTER, change: { op: 'set', amount: 77n } })
  })

  it('folds increase and decrease on a known base, and tells revoked and re-approved apart', async () => {
    const inc = encodeFunctionData({ abi: approvalsAbi, functionName: 'increaseAllowance', args: [ROUTER, 30n] })
    const dec = encodeFunctionData({ abi: approvalsAbi, functionName: 'decreaseAllowance', args: [ROUTER, 50n] })
    const op = (on: boolean) =>
      encodeFunctionData({ abi: approvalsAbi, functionName: 'setApprovalForAll', args: [ROUTER, on] })
    const txs = [
      call(1, TOKEN, approve(ROUTER, 100n)),
      call(2, TOKEN, inc),
      call(3, TOKEN, dec),
      call(4, NFT, op(true)),
      call(5, NFT, op(false)),
      call(6, TOKEN, approve(OTHER, 10n)),
      call(7, TOKEN, approve(OTHER, 0n)),
      call(8, TOKEN, approve(OTHER, 20n)),
    ]
    const kinds = new Map([
      [TOKEN, 'ERC-20'],
      [NFT, 'ERC-721'],
    ])
    const byKey = Object.fromEntries(
      foldApprovals(eventsFromTransactions(txs, ME), kinds).map((c) => [`${c.kind}:${c.spender}`, c]),
    )
    expect(byKey[`erc20:${ROUTER}`]).toMatchObject({ expected: 80n, granted: 130n, clearedByOwner: false })
    expect(byKey[`erc20:${ROUTER}`]!.grant!.tx).toBe(txs[1]!.hash)
    expect(byKey[`operator:${ROUTER}`]).toMatchObject({ clearedByOwner: true })
    expect(byKey[`operator:${ROUTER}`]!.grant!.tx).toBe(txs[3]!.hash)
    // Re-approved after a revoke: live again, granted by the last approve.
    expect(byKey[`erc20:${OTHER}`]).toMatchObject({ expected: 20n, clearedByOwner: false })
    expect(byKey[`erc20:${OTHER}`]!.grant!.tx).toBe(txs[7]!.hash)
  })

  it('an approve on an ERC-721 the app knows is a single-token approval; on an unknown token it may be either', async () => {
    const txs = [call(1, NFT, approve(ROUTER, 9n)), call(2, TOKEN, approve(ROUTER, 9n))]
    const [nft, unknown] = foldApprovals(eventsFromTransactions(txs, ME), new Map([[NFT, 'ERC-721']]))
    expect(nft).toMatchObject({ kind: 'nft', tokenId: 9n, spender: ROUTER })
    expect(unknown).toMatchObject({ kind: 'erc20', maybeNft: true, tokenId: 9n })
  })
})

describe('approvals from logs', () => {
  const me = addressTopic(ME)
  it('reads ERC-20 (three topics), ERC-721 per token (four) and operators, only where topic 1 is the owner', async () => {
    const logs = [
      log(10, 0, [APPROVAL_TOPIC, me, addressTopic(ROUTER)], word(MAX_UINT256)),
      log(11, 3, [APPROVAL_TOPIC, me, addressTopic(OTHER), word(7n)], '0x', NFT),
      log(12, 1, [APPROVAL_FOR_ALL_TOPIC, me, addressTopic(ROUTER)], word(1n), NFT),
      log(13, 0, [APPROVAL_TOPIC, addressTopic(OTHER), addressTopic(ROUTER)], word(5n)),
      { ...log(14, 0, [APPROVAL_TOPIC, me, addressTopic(ROUTER)], word(5n)), removed: true },
      log(15, 0, [APPROVAL_TOPIC, me, addressTopic(ROUTER)], '0x12'),
      'not a log',
    ]
    const events = eventsFromLogs(logs, ME)
    expect(events.map((e) => [e.token, e.spender, e.change, e.block])).toEqual([
      [TOKEN, ROUTER, { op: 'set', amount: MAX_UINT256 }, 10],
      [NFT, OTHER, { op: 'nft', tokenId: 7n }, 11],
      [NFT, ROUTER, { op: 'operator', on: true }, 12],
    ])
  })

  it('counts the logs it skips, a transaction hash that is not 32 bytes among them; a removed log is not counted', async () => {
    const good = log(10, 0, [APPROVAL_TOPIC, me, addressTopic(ROUTER)], word(5n))
    const logs = [
      good,
      { ...good, transactionHash: `0x${'a'.repeat(300)}` },
      { ...good, transactionHash: `0x${'a'.repeat(62)}` },
      { ...good, transactionHash: 7 },
      { ...good, address: 'not an address' },
      { ...good, removed: true },
      log(13, 0, [APPROVAL_TOPIC, addressTopic(OTHER), addressTopic(ROUTER)], word(5n)),
      null,
    ]
    const read = readApprovalLogs(logs, ME)
    expect(read.events.map((e) => e.tx)).toEqual([good.transactionHash])
    expect(read.skipped).toBe(6)
  })

  it('folds an ERC-721 approval moved to the zero address as revoked, and a log over the call of the same transaction', async () => {
    const zero = addressTopic('0x0000000000000000000000000000000000000000')
    const logs = [
      log(20, 0, [APPROVAL_TOPIC, me, addressTopic(OTHER), word(7n)], '0x', NFT),
      log(21, 0, [APPROVAL_TOPIC, me, zero, word(7n)], '0x', NFT),
      log(22, 0, [APPROVAL_TOPIC, me, addressTopic(ROUTER)], word(130n)),
    ]
    const inc = encodeFunctionData({ abi: approvalsAbi, functionName: 'increaseAllowance', args: [ROUTER, 30n] })
    const sameTx = call(1, TOKEN, inc, { hash: logs[2]!.transactionHash, block: 22 })
    const events = [...eventsFromTransactions([sameTx], ME), ...eventsFromLogs(logs, ME)]
    const folded = foldApprovals(events, new Map())
    const nft = folded.find((c) => c.kind === 'nft')!
    expect(nft).toMatchObject({ tokenId: 7n, clearedByOwner: true })
    expect(nft.grant!.block).toBe(20)
    const erc20 = folded.find((c) => c.kind === 'erc20')!
    expect(erc20).toMatchObject({ expected: 130n, granted: 130n })
    expect(erc20.last.via).toBe('log')
  })
})
