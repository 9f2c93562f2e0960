import { describe, expect, it } from 'vitest'
import { buildFromForm, buildFromRaw, checkParam, findMethod } from './rpc-methods'
import { toTree } from './rpc-decode'

describe('rpc parameter form', () => {
  it('converts and checks each kind', () => {
    expect(checkParam({ name: 'block', kind: 'block', example: '' }, '12345')).toEqual({ ok: true, value: '0x3039' })
    expect(checkParam({ name: 'block', kind: 'block', example: '' }, 'latest')).toEqual({ ok: true, value: 'latest' })
    expect(checkParam({ name: 'block', kind: 'block', example: '' }, 'yesterday')).toMatchObject({ ok: false })
    expect(checkParam({ name: 'a', kind: 'address', example: '' }, '0x123')).toEqual({
      ok: false,
      message: 'An address has 40 hex characters after 0x; this one has 3.',
    })
    expect(checkParam({ name: 'h', kind: 'hash', example: '' }, '0xabc')).toMatchObject({
      ok: false,
      message: expect.stringContaining('64 hex'),
    })
    expect(checkParam({ name: 'b', kind: 'bool', example: '' }, 'true')).toEqual({ ok: true, value: true })
    expect(checkParam({ name: 'c', kind: 'json-object', example: '' }, '[1]')).toMatchObject({ ok: false })
    expect(checkParam({ name: 'c', kind: 'json-object', example: '' }, '{"to":')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Not valid JSON'),
    })
  })

  it('reports every field problem and builds params in order', () => {
    const spec = findMethod('eth_getBalance')!
    const bad = buildFromForm(spec, { address: 'nope', block: 'x' })
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(Object.keys(bad.errors).sort()).toEqual(['address', 'block'])
    const good = buildFromForm(spec, { address: '0x52908400098527886E0F7030069857D2E4169EE7' })
    expect(good).toEqual({
      ok: true,
      call: { method: 'eth_getBalance', params: ['0x52908400098527886E0F7030069857D2E4169EE7', 'latest'] },
    })
  })

  it('validates raw JSON', () => {
    expect(buildFromRaw('[1,2]', 'eth_call')).toEqual({ ok: true, call: { method: 'eth_call', params: [1, 2] } })
    expect(buildFromRaw('{"method":"eth_chainId"}', 'eth_call')).toEqual({
      ok: true,
      call: { method: 'eth_chainId', params: [] },
    })
    expect(buildFromRaw('{"method":"anvil_mine","params":[]}', 'x')).toMatchObject({ ok: false })
    expect(buildFromRaw('{"method":"eth_x","params":{}}', 'x')).toMatchObject({ ok: false })
    expect(buildFromRaw('{nope', 'x')).toMatchObject({
      ok: false,
      errors: { raw: expect.stringContaining('Not valid JSON') },
    })
  })
})

describe('rpc result decoding', () => {
  it('decodes a quantity result and wei readings', () => {
    expect(toTree('0x3039', 'eth_blockNumber').decoded).toEqual({ decimal: '12,345', note: null })
    expect(toTree('0x59682f00', 'eth_gasPrice').decoded).toEqual({ decimal: '1,500,000,000', note: '1.5 gwei' })
    expect(toTree('0xde0b6b3a7640000', 'eth_getBalance').decoded?.note).toBe('1 coin')
  })

  it('leaves data alone and decodes known fields of objects', () => {
    expect(toTree('0x6080', 'eth_getCode').decoded).toBeNull()
    const block = toTree(
      {
        number: '0x10',
        hash: `0x${'0'.repeat(64)}`,
        nonce: '0x0000000000000000',
        timestamp: '0x5f5e100',
        baseFeePerGas: '0x3b9aca00',
      },
      'eth_getBlockByNumber',
    )
    const byKey = Object.fromEntries(block.children.map((c) => [c.key, c.decoded]))
    expect(byKey.number).toEqual({ decimal: '16', note: null })
    expect(byKey.hash).toBeNull()
    expect(byKey.nonce).toBeNull()
    expect(byKey.timestamp?.note).toBe('1973-03-03T09:46:40.000Z')
    expect(byKey.baseFeePerGas?.note).toBe('1 gwei')
    const fees = toTree({ baseFeePerGas: ['0x1', '0x2'] }, 'eth_feeHistory')
    expect(fees.children[0]!.children.map((c) => c.decoded?.decimal)).toEqual(['1', '2'])
  })
})
