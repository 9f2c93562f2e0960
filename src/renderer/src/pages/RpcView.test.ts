import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { makeLimiter, sandboxProfile } from '../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import { useSessionStore } from '../platform/session-store'
import RpcView from './RpcView.vue'
import { useRpcConsoleStore } from '../features/rpc'

describe('RpcView', () => {
  let t: TestApp
  beforeEach(() => {
    localStorage.clear()
    t = setupTestApp()
    useSessionStore().profiles = [sandboxProfile(true, true)]
    t.bridge.handle('rpc.call', ({ method }) => ({
      result: method === 'eth_gasPrice' ? '0x59682f00' : { number: '0x10', hash: `0x${'ab'.repeat(32)}` },
    }))
  })

  it('sends the picked method and pretty-prints the result with quantities decoded', async () => {
    const w = mountWith(RpcView, t)
    await w.get('select').setValue('eth_gasPrice')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('rpc.call')).toEqual([{ network: 'alpha', method: 'eth_gasPrice', params: [] }])
    const result = w.get('[data-testid="rpc-result"]').text()
    expect(result).toContain('"0x59682f00"')
    expect(result).toContain('= 1,500,000,000 (1.5 gwei)')
    expect(w.get('table[aria-label="RPC history"]').text()).toContain('eth_gasPrice')
    w.unmount()
  })

  it('validates the parameter form and raw JSON before sending', async () => {
    const w = mountWith(RpcView, t)
    await w.get('select').setValue('eth_getBlockByNumber')
    const inputs = w.findAll('form input.mono')
    await inputs[0]!.setValue('soon')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('rpc.call')).toHaveLength(0)
    expect(w.text()).toContain('A block is latest, earliest, pending, safe, finalized, a number or a 0x hex number.')
    await inputs[0]!.setValue('16')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('rpc.call')[0]).toEqual({
      network: 'alpha',
      method: 'eth_getBlockByNumber',
      params: ['0x10', false],
    })
    expect(w.get('[data-testid="rpc-result"]').text()).toMatch(/number:\s*"0x10"\s*= 16/)

    await w.findAll('input[type="radio"]')[1]!.setValue(true)
    await w.get('textarea').setValue('{"method": "eth_chainId", "params": [}')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(w.text()).toContain('Not valid JSON')
    expect(t.bridge.callsOf('rpc.call')).toHaveLength(1)
    w.unmount()
  })

  it('disables sending with the reason when the quota is used up', async () => {
    const w = mountWith(RpcView, t)
    t.bridge.emit('limiter', makeLimiter({ usedToday: 1000, leftToday: 0 }))
    await flushPromises()
    const send = w.findAll('button').find((b) => b.text() === 'Send')!
    expect(send.attributes('disabled')).toBeDefined()
    expect(w.get(`#${send.attributes('aria-describedby')}`).text()).toMatch(/quota is used up; it resets at \d\d:\d\d/)
    w.unmount()
  })

  it('refuses a method that signs or sends, in raw JSON or from an old history entry, before anything is sent', async () => {
    const w = mountWith(RpcView, t)
    await w.findAll('input[type="radio"]')[1]!.setValue(true)
    await w.get('textarea').setValue('{"method": "eth_sendRawTransaction", "params": ["0x02f86b01"]}')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(w.text()).toContain('eth_sendRawTransaction signs, sends or broadcasts; the RPC console is read-only')
    // A history entry written by a build that sent it, put back as a params array for its method.
    const rpc = useRpcConsoleStore()
    rpc.method = 'eth_sendTransaction'
    rpc.rawText = '[{"to": "0x2222222222222222222222222222222222222222"}]'
    expect(await rpc.send('alpha')).toBe(false)
    expect(rpc.fieldErrors.raw).toMatch(/^eth_sendTransaction signs, sends or broadcasts/)
    expect(t.bridge.callsOf('rpc.call')).toEqual([])
    w.unmount()
  })
})
