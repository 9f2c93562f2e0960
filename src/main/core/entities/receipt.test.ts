import { describe, expect, it } from 'vitest'
import { encodeAbiParameters, encodeEventTopics, parseAbi } from 'viem'
import { readReceipt } from './receipt'
import { decodeKnownLog } from './log-decoding'

const abi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
])
const nft = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)'])
const A = (n: number): `0x${string}` => `0x${n.toString(16).padStart(40, '0')}`
const HASH = `0x${'ab'.repeat(32)}`
const TOKEN = A(0xaa)

const receipt = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  transactionHash: HASH,
  blockHash: `0x${'cd'.repeat(32)}`,
  blockNumber: '0x10',
  from: A(1),
  to: A(2),
  status: '0x1',
  gasUsed: '0x5208',
  effectiveGasPrice: '0x3b9aca00',
  contractAddress: null,
  logs: [],
  ...over,
})
const log = (topics: string[], data: string, logIndex = '0x0'): Record<string, unknown> => ({
  address: TOKEN,
  topics,
  data,
  logIndex,
})

describe('event logs', () => {
  it('decodes the known events as viem encodes them', () => {
    const u = (v: bigint): `0x${string}` => encodeAbiParameters([{ type: 'uint256' }], [v])
    const cases = [
      {
        topics: encodeEventTopics({ abi, eventName: 'Transfer', args: { from: A(1), to: A(2) } }),
        data: u(5n),
        want: ['Transfer', 'ERC-20', [A(1), A(2), '5']],
      },
      {
        topics: encodeEventTopics({ abi: nft, eventName: 'Transfer', args: { from: A(1), to: A(2), tokenId: 77n } }),
        data: '0x',
        want: ['Transfer', 'ERC-721', [A(1), A(2), '77']],
      },
      {
        topics: encodeEventTopics({ abi, eventName: 'Approval', args: { owner: A(1), spender: A(3) } }),
        data: u(2n ** 256n - 1n),
        want: ['Approval', 'ERC-20', [A(1), A(3), (2n ** 256n - 1n).toString()]],
      },
      {
        topics: encodeEventTopics({ abi, eventName: 'ApprovalForAll', args: { owner: A(1), operator: A(4) } }),
        data: encodeAbiParameters([{ type: 'bool' }], [true]),
        want: ['ApprovalForAll', 'ERC-721/1155', [A(1), A(4), 'true']],
      },
      {
        topics: encodeEventTopics({ abi, eventName: 'TransferSingle', args: { operator: A(5), from: A(1), to: A(2) } }),
        data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [3n, 40n]),
        want: ['TransferSingle', 'ERC-1155', [A(5), A(1), A(2), '3', '40']],
      },
      {
        topics: encodeEventTopics({ abi, eventName: 'TransferBatch', args: { operator: A(5), from: A(1), to: A(2) } }),
        data: encodeAbiParameters(
          [{ type: 'uint256[]' }, { type: 'uint256[]' }],
          [
            [1n, 2n],
            [10n, 20n],
          ],
        ),
        want: ['TransferBatch', 'ERC-1155', [A(5), A(1), A(2), '1, 2', '10, 20']],
      },
    ]
    for (const c of cases) {
      const decoded = decodeKnownLog({ address: TOKEN, topics: c.topics as string[], data: c.data })
      expect(decoded && [decoded.event, decoded.standard, decoded.args.map((a) => a.value)]).toEqual(c.want)
    }
  })

  it('leaves an unknown event, or a known topic in the wrong shape, undecoded', () => {
    const [t0, t1, t2] = encodeEventTopics({ abi, eventName: 'Transfer', args: { from: A(1), to: A(2) } }) as string[]
    expect(decodeKnownLog({ address: TOKEN, topics: [`0x${'11'.repeat(32)}`], data: '0x' })).toBeNull()
    expect(decodeKnownLog({ address: TOKEN, topics: [t0!, t1!, t2!], data: '0x1234' })).toBeNull()
    const [b0, b1, b2, b3] = encodeEventTopics({ abi, eventName: 'TransferBatch', args: {} }) as string[]
    expect(
      decodeKnownLog({ address: TOKEN, topics: [b0!, b1 ?? t1!, b2 ?? t2!, b3 ?? t1!], data: '0xdeadbeef' }),
    ).toBeNull()
  })
})

describe('receipt', () => {
  it('reads status, gas, the contract created and the logs with their decoding', () => {
    const topics = encodeEventTopics({ abi, eventName: 'Transfer', args: { from: A(1), to: A(2) } }) as string[]
    const r = readReceipt(
      receipt({
        status: '0x0',
        to: null,
        contractAddress: A(9).toUpperCase().replace('0X', '0x'),
        logs: [log(topics, encodeAbiParameters([{ type: 'uint256' }], [7n]), '0x3')],
      }),
      HASH.toUpperCase().replace('0X', '0x'),
      'sandbox-a',
    )
    expect(r).toMatchObject({
      hash: HASH,
      status: 'failed',
      block: 16,
      gasUsed: '21000',
      to: null,
      contractCreated: A(9),
    })
    expect(r.effectiveGasPrice).toBe('1000000000')
    expect(r.logs[0]).toMatchObject({ index: 3, address: TOKEN, decoded: { event: 'Transfer' } })
  })

  it('refuses the receipt of another transaction', () => {
    const other = `0x${'ef'.repeat(32)}`
    expect(() => readReceipt(receipt({ transactionHash: other }), HASH, 'sandbox-a')).toThrow(
      `answered the receipt of ${other} when asked for ${HASH}`,
    )
  })

  it('says a missing receipt is pending or unknown', () => {
    expect(() => readReceipt(null, HASH, 'sandbox-a')).toThrow('pending or unknown')
  })

  it('bounds hostile answers with errors naming what was wrong', () => {
    const topic = `0x${'00'.repeat(32)}`
    const many = log(
      Array.from({ length: 10_000 }, () => topic),
      '0x',
    )
    expect(() => readReceipt(receipt({ logs: [many] }), HASH, 'n')).toThrow(
      'log 0 has 10,000 topics; a log has at most 4',
    )
    const huge = log([topic], `0x${'00'.repeat(300_000)}`)
    expect(() => readReceipt(receipt({ logs: [log([], '0x'), huge] }), HASH, 'n')).toThrow(
      'the data of log 1 is 300,000 bytes; at most 262,144 are read',
    )
    const flood = Array.from({ length: 10_001 }, () => log([], '0x'))
    expect(() => readReceipt(receipt({ logs: flood }), HASH, 'n')).toThrow('it holds 10,001 logs; at most 10,000')
    expect(() => readReceipt(receipt({ logs: [log(['0x12'], '0x')] }), HASH, 'n')).toThrow(
      'topic 0 of log 0 is not 32 bytes of hex',
    )
    expect(() => readReceipt(receipt({ logs: [log([], '0xabc')] }), HASH, 'n')).toThrow(
      'the data of log 0 is not hex bytes',
    )
    expect(() => readReceipt(receipt({ gasUsed: 12 }), HASH, 'n')).toThrow('its gasUsed is not a hex quantity')
  })
})
