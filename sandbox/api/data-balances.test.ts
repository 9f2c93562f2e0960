import { createPublicClient, http as viemHttp, parseAbi, type Address, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRANSFER_TOPIC } from '@shared/domain/events'
import { dataUrl, http } from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/** Balances and token fields from the data API against the chain itself (eth_call, logs). */
let sb: StartedSandbox
const KEY = 'balances-test-key'
const ERC20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
])
const ERC721 = parseAbi([
  'function ownerOf(uint256) view returns (address)',
  'function balanceOf(address) view returns (uint256)',
])
const ERC1155 = parseAbi(['function balanceOf(address, uint256) view returns (uint256)'])

interface Item {
  token: {
    address: Address
    type: string
    decimals: string
    total_supply: string
    holders: string
    name: string
    symbol: string
  }
  token_id: string | null
  value: string
}

beforeAll(async () => {
  sb = await startSandbox({
    args: ['--api-key', KEY, '--block-time', '0', '--rate', '1000', '--burst', '1000', '--quota', '1000000'],
  })
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await sb?.stop()
})

describe.each(['alpha', 'beta'])('balances on %s', (network) => {
  let client: PublicClient
  const demo = () => sb.info.demo_addresses[network]!
  const erc20s = () => [demo().token_erc20_6!, demo().token_erc20!, demo().token_erc20_0!] as Address[]
  beforeAll(() => {
    client = createPublicClient({ transport: viemHttp(`${sb.info.rpc_url}/${network}/${KEY}`) })
  })
  const balancesOf = async (address: string): Promise<Item[]> =>
    (await http<{ items: Item[] }>(dataUrl(sb.info.base_url, network, 'balance', { api_key: KEY, address }))).json.items

  it('matches balanceOf on chain for every ERC-20 and lists exactly the tokens held', async () => {
    const holders = [demo().whale!, demo().holder!, demo().counterparty!, demo().deployer!] as Address[]
    for (const owner of holders) {
      const items = (await balancesOf(owner)).filter((i) => i.token.type === 'ERC-20')
      const listed = new Map(items.map((i) => [i.token.address, BigInt(i.value)]))
      // Every ERC-20 of the seed: listed with the on-chain balance, or absent when it is zero.
      const all = new Set<Address>([...erc20s(), ...(items.map((i) => i.token.address) as Address[])])
      for (const token of all) {
        const onChain = await client.readContract({
          address: token,
          abi: ERC20,
          functionName: 'balanceOf',
          args: [owner],
        })
        expect(listed.get(token) ?? 0n).toBe(onChain)
      }
    }
  }, 120_000)

  it('lists the NFTs the holder owns, id by id, as the chain says', async () => {
    const holder = demo().holder! as Address
    const items = await balancesOf(holder)
    const punks = items.filter((i) => i.token.type === 'ERC-721')
    expect(punks.length).toBeGreaterThan(0)
    for (const p of punks) {
      expect(p.value).toBe('1')
      expect(
        await client.readContract({
          address: p.token.address,
          abi: ERC721,
          functionName: 'ownerOf',
          args: [BigInt(p.token_id!)],
        }),
      ).toBe(holder)
    }
    const count = await client.readContract({
      address: demo().token_erc721! as Address,
      abi: ERC721,
      functionName: 'balanceOf',
      args: [holder],
    })
    expect(BigInt(punks.length)).toBe(count)
    const items1155 = items.filter((i) => i.token.type === 'ERC-1155')
    for (const id of [1n, 2n, 3n]) {
      const onChain = await client.readContract({
        address: demo().token_erc1155! as Address,
        abi: ERC1155,
        functionName: 'balanceOf',
        args: [holder, id],
      })
      expect(BigInt(items1155.find((i) => i.token_id === String(id))?.value ?? '0')).toBe(onChain)
    }
  })

  it('reads token metadata and total supply from the chain and counts holders like a log replay does', async () => {
    const items = await balancesOf(demo().whale!)
    for (const token of erc20s()) {
      const t = items.find((i) => i.token.address === token)!.token
      const [supply, decimals, name, symbol] = await Promise.all([
        client.readContract({ address: token, abi: ERC20, functionName: 'totalSupply' }),
        client.readContract({ address: token, abi: ERC20, functionName: 'decimals' }),
        client.readContract({ address: token, abi: ERC20, functionName: 'name' }),
        client.readContract({ address: token, abi: ERC20, functionName: 'symbol' }),
      ])
      expect(t).toMatchObject({ total_supply: supply.toString(), decimals: String(decimals), name, symbol })
      const logs = await client.request({
        method: 'eth_getLogs',
        params: [{ address: token, fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER_TOPIC] }],
      })
      const balances = new Map<string, bigint>()
      for (const log of logs) {
        const value = BigInt(log.data)
        const from = `0x${log.topics[1]!.slice(26)}`
        const to = `0x${log.topics[2]!.slice(26)}`
        balances.set(from, (balances.get(from) ?? 0n) - value)
        balances.set(to, (balances.get(to) ?? 0n) + value)
      }
      balances.delete('0x0000000000000000000000000000000000000000')
      expect(t.holders).toBe(String([...balances.values()].filter((v) => v > 0n).length))
    }
  })
})
