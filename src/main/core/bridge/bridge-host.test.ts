import { describe, expect, it } from 'vitest'
import { AppError } from '../util/app-error'
import { BridgeHost } from './bridge-host'
import { Redactor } from '../util/logger'
import { stringsAndKeys } from '../testing/secrets'

describe('BridgeHost', () => {
  it('removes a registered secret from every answer and event, even one a service echoed back', async () => {
    const redactor = new Redactor()
    redactor.add('sbx_secret_key_1234')
    const logged: string[] = []
    const host = new BridgeHost(
      {
        'rpc.call': () => ({ result: { echoed: 'url?api_key=sbx_secret_key_1234' } }),
        'key.test': () => {
          throw new AppError('protocol', 'bad body', { data: 'sbx_secret_key_1234' })
        },
      },
      { redactor, log: (m) => logged.push(m) },
    )
    expect(await host.dispatch('rpc.call', { network: 'alpha', method: 'eth_call' })).toEqual({
      ok: true,
      value: { result: { echoed: 'url?api_key=…1234' } },
    })
    expect(await host.dispatch('key.test', { profileId: 'p' })).toEqual({
      ok: false,
      error: { kind: 'protocol', message: 'bad body', data: '…1234' },
    })
    const seen: unknown[] = []
    host.subscribe((_e, payload) => seen.push(payload))
    host.emit('notice', { id: '1', level: 'info', message: 'key sbx_secret_key_1234', at: 'now' })
    expect(JSON.stringify(seen)).not.toContain('sbx_secret_key_1234')
    expect(logged).toHaveLength(3)
  })

  it('redacts a key holding JSON or URL special characters, in every form a URL gives it, without breaking the answer', async () => {
    for (const key of ['abc"defgh\\ij', 'key!with(parens)~x', 'ab/cd+ef=gh', 'tab\there\nkey\r1234']) {
      const redactor = new Redactor()
      redactor.add(key)
      const form = new URLSearchParams({ api_key: key }).toString()
      const host = new BridgeHost(
        {
          'rpc.call': () => ({
            result: {
              raw: `x${key}x`,
              encoded: encodeURIComponent(key),
              form,
              lower: form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
              [key]: 1,
              deep: JSON.parse(`${'['.repeat(80)}"${JSON.stringify(key).slice(1, -1)}"${']'.repeat(80)}`) as unknown,
            },
          }),
        },
        { redactor },
      )
      const answer = await host.dispatch('rpc.call', { network: 'alpha', method: 'eth_call' })
      expect(answer.ok).toBe(true)
      const text = JSON.stringify(answer)
      for (const leaked of [
        key,
        JSON.stringify(key).slice(1, -1),
        encodeURIComponent(key),
        form.slice('api_key='.length),
        form.slice('api_key='.length).toLowerCase(),
      ]) {
        expect(text).not.toContain(leaked)
      }
      expect(text).toContain(`…${key.slice(-4)}`.replace(/[\\"]/g, (c) => `\\${c}`))
    }
  })

  it('finds a key that a string holds already escaped (a JSON text in a field, PHP-style `\\/`), with no plain copy beside it', async () => {
    for (const key of ['abc"defgh\\ij', 'ab/cd+ef=gh', 'tab\there\nkey\r1234']) {
      const redactor = new Redactor()
      redactor.add(key)
      for (const result of [
        { error: JSON.stringify({ key }) },
        { php: key.replace(/\//g, '\\/') },
        { [JSON.stringify(key)]: 1 },
      ]) {
        expect(stringsAndKeys(result).some((t) => redactor.contains(t))).toBe(true)
        const host = new BridgeHost({ 'rpc.call': () => ({ result }) }, { redactor })
        const answer = await host.dispatch('rpc.call', { network: 'alpha', method: 'eth_call' })
        expect(answer.ok).toBe(true)
        expect(stringsAndKeys(answer).filter((t) => redactor.contains(t))).toEqual([])
      }
    }
  })

  it('answers a value without secrets as it is, and copies only the path to a redacted one', async () => {
    const redactor = new Redactor()
    redactor.add('sbx_secret_key_1234')
    const clean = { items: [{ hash: '0xab', from: { hash: '0xcd' } }], n: 1 }
    const dirty = {
      items: [
        { hash: '0xab', from: { hash: '0xcd' } },
        { hash: '0xef', to: { name: 'x?api_key=sbx_secret_key_1234' } },
      ],
      other: { kept: true },
    }
    let answer: unknown = clean
    const host = new BridgeHost({ 'rpc.call': () => ({ result: answer }) }, { redactor })
    const first = await host.dispatch('rpc.call', { network: 'alpha', method: 'eth_call' })
    expect(first.ok && (first.value as { result: unknown }).result).toBe(clean)
    answer = dirty
    const second = await host.dispatch('rpc.call', { network: 'alpha', method: 'eth_call' })
    const result = (second.ok ? (second.value as { result: typeof dirty }).result : null)!
    expect(result).toEqual({
      items: [
        { hash: '0xab', from: { hash: '0xcd' } },
        { hash: '0xef', to: { name: 'x?api_key=…1234' } },
      ],
      other: { kept: true },
    })
    // The service's own value is untouched; untouched branches are shared, not copied.
    expect(JSON.stringify(dirty)).toContain('sbx_secret_key_1234')
    expect(result.items[0]).toBe(dirty.items[0])
    expect(result.other).toBe(dirty.other)
  })

  it('finds a secret holding control characters, which JSON writes as short escapes (\\t, \\n)', async () => {
    const key = 'tab\there\nkey\r1234'
    const redactor = new Redactor()
    redactor.add(key)
    const host = new BridgeHost({ 'rpc.call': () => ({ result: { note: `x${key}x` } }) }, { redactor })
    expect(await host.dispatch('rpc.call', { network: 'alpha', method: 'eth_call' })).toEqual({
      ok: true,
      value: { result: { note: 'x…1234x' } },
    })
  })

  it('still finds a secret in an answer JSON cannot write (a bigint, a cycle), and in a bare string', async () => {
    const redactor = new Redactor()
    redactor.add('sbx_secret_key_1234')
    const cyclic: Record<string, unknown> = { note: 'see sbx_secret_key_1234' }
    cyclic['self'] = cyclic
    const answers: unknown[] = [
      { amount: 10n, echoed: 'api_key=sbx_secret_key_1234' },
      cyclic,
      'sbx_secret_key_1234',
      [{ deep: [{ key: 'sbx_secret_key_1234' }] }],
    ]
    let answer: unknown = null
    const host = new BridgeHost({ 'rpc.call': () => ({ result: answer }) }, { redactor })
    for (const a of answers) {
      answer = a
      const got = await host.dispatch('rpc.call', { network: 'alpha', method: 'eth_call' })
      expect(got.ok).toBe(true)
      const seen = got.ok ? (got.value as { result: unknown }).result : null
      const strings: string[] = []
      const collect = (v: unknown, depth: number): void => {
        if (typeof v === 'string') strings.push(v)
        else if (typeof v === 'object' && v !== null && depth < 5)
          for (const x of Object.values(v)) collect(x, depth + 1)
      }
      collect(seen, 0)
      expect(strings.some((x) => x.includes('…1234'))).toBe(true)
      expect(strings.some((x) => x.includes('sbx_secret_key_1234'))).toBe(false)
    }
  })

  it('reports a handler that throws something unexpected as internal, with details only in the log', async () => {
    const logged: string[] = []
    const host = new BridgeHost(
      {
        'app.info': () => {
          throw new TypeError('boom')
        },
      },
      { log: (m) => logged.push(m) },
    )
    expect(await host.dispatch('app.info', {})).toEqual({
      ok: false,
      error: { kind: 'internal', message: 'app.info failed unexpectedly; the details are in the log.' },
    })
    expect(logged).toEqual(['bridge app.info failed: TypeError: boom'])
  })
})
