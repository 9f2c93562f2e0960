import { describe, expect, it } from 'vitest'
import { buildFromForm, buildFromRaw, checkParam, findMethod } from './rpc-methods'

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
