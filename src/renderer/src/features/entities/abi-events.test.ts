import { describe, expect, it } from 'vitest'
import { encodeAbiParameters, encodeEventTopics, parseAbi } from 'viem'
import type { LogView } from '@shared/bridge/entity-types'
import { abiEvents, decodeWithAbis } from './abi-events'

const VAULT = `0x${'11'.repeat(20)}`
const USER = `0x${'22'.repeat(20)}`
const ABI = JSON.stringify([
  {
    type: 'event',
    name: 'Deposited',
    inputs: [
      { name: 'user', type: 'address', indexed: true },
      { name: 'amount', type: 'uint256', indexed: false },
      { name: 'memo', type: 'string', indexed: false },
    ],
  },
  { type: 'function', name: 'total', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
])

function depositLog(amount: bigint, memo: string): LogView {
  const [event] = parseAbi(['event Deposited(address indexed user, uint256 amount, string memo)'])
  const topics = encodeEventTopics({ abi: [event], eventName: 'Deposited', args: { user: USER as `0x${string}` } })
  return {
    index: 0,
    address: VAULT,
    topics: topics as string[],
    data: encodeAbiParameters([{ type: 'uint256' }, { type: 'string' }], [amount, memo]),
    decoded: null,
  }
}

describe('events of a loaded ABI decode logs', () => {
  it('decodes a log against viem’s own encoding: indexed and data arguments, numbers exact', () => {
    const decoded = decodeWithAbis(depositLog(10n ** 30n + 7n, 'rent'), [abiEvents(ABI, 'vault.json')])
    expect(decoded).toEqual({
      event: 'Deposited',
      standard: 'vault.json',
      args: [
        { name: 'user', value: USER },
        { name: 'amount', value: '1000000000000000000000000000007' },
        { name: 'memo', value: 'rent' },
      ],
    })
  })

  it('shows a decoded text without its format characters (a right-to-left override cannot reorder it)', () => {
    const decoded = decodeWithAbis(depositLog(1n, 'pay\u202Eevil\u200B'), [abiEvents(ABI, 'vault.json')])
    expect(decoded?.args[2]).toEqual({ name: 'memo', value: 'payevil' })
  })

  it('an event name with format characters is shown without them', () => {
    const hostile = ABI.replace('"Deposited"', '"Depo\\u202Esited"')
    const events = abiEvents(hostile, 'x')
    const [event] = [...events.byTopic.values()]
    const log = depositLog(1n, '')
    // The topic is of the hostile name itself: the log that really carries it is the one decoded.
    log.topics[0] = [...events.byTopic.keys()][0]!
    expect(event?.name).toBe('Depo\u202Esited')
    expect(decodeWithAbis(log, [events])?.event).toBe('Deposited')
  })

  it('leaves undecoded what no loaded ABI has, or what does not fit its event', () => {
    const events = abiEvents(ABI, 'vault.json')
    const other = { ...depositLog(1n, 'x'), topics: [`0x${'99'.repeat(32)}`] }
    expect(decodeWithAbis(other, [events])).toBeNull()
    const short = { ...depositLog(1n, 'x'), data: '0x1234' }
    expect(decodeWithAbis(short, [events])).toBeNull()
    expect(decodeWithAbis({ ...other, topics: [] }, [events])).toBeNull()
  })

  it('reads no events from text that is not an ABI, and skips entries that are not events', () => {
    expect(abiEvents('not json', 'x').byTopic.size).toBe(0)
    expect(abiEvents('{"abi": 3}', 'x').byTopic.size).toBe(0)
    expect(abiEvents(JSON.stringify([{ type: 'event', name: 'NoInputs' }, 7, null]), 'x').byTopic.size).toBe(0)
    expect(abiEvents(JSON.stringify({ abi: JSON.parse(ABI) }), 'artifact').byTopic.size).toBe(1)
  })
})
