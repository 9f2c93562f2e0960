import { describe, expect, it } from 'vitest'
import { requestUnits, type Billing } from '@shared/domain/billing'
import type { RpcCallSpec } from './service-types'
import { cheapestCalls, cheapestUnits } from './cheapest-calls'

const client = (billing: Billing, sent: string[][]) => ({
  rpcCalls: async (_network: string, calls: RpcCallSpec[]) => {
    sent.push(calls.map((c) => c.method))
    return calls.map((c) => ({ ok: true as const, result: c.method }))
  },
  unitsFor: (_network: string, calls: number) => requestUnits(billing, calls),
})
const calls: RpcCallSpec[] = [
  { method: 'eth_getBalance', params: [] },
  { method: 'eth_getTransactionCount', params: [] },
]

describe('cheapestCalls', () => {
  it.each([
    ['request', [['eth_getBalance', 'eth_getTransactionCount']], 1],
    ['call', [['eth_getBalance', 'eth_getTransactionCount']], 2],
    ['call-plus-batch', [['eth_getBalance'], ['eth_getTransactionCount']], 2],
  ] as const)('billing %s: sends %j, costing %i', async (billing, shape, units) => {
    const sent: string[][] = []
    const answers = await cheapestCalls(client(billing, sent), 'alpha', calls, { priority: 'user' })
    expect(sent).toEqual(shape)
    expect(answers.map((a) => (a.ok ? a.result : null))).toEqual(['eth_getBalance', 'eth_getTransactionCount'])
    expect(cheapestUnits(client(billing, []), 'alpha', 2)).toBe(units)
  })
})
