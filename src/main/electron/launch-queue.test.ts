import { describe, expect, it } from 'vitest'
import { LaunchQueue } from './launch-queue'

const ADDR = '0x52908400098527886E0F7030069857D2E4169EE7' as const

describe('LaunchQueue', () => {
  const open = (n: number) => ({ kind: 'open' as const, request: { address: ADDR, network: `n${n}` } })

  it('holds requests until the page is ready, then delivers them in order and later ones at once', () => {
    const queue = new LaunchQueue()
    const delivered: unknown[] = []
    queue.push(open(1))
    queue.push({ kind: 'none' })
    queue.push({ kind: 'invalid', message: 'bad' })
    expect(delivered).toEqual([])
    queue.open((r) => delivered.push(r))
    expect(delivered).toEqual([open(1), { kind: 'invalid', message: 'bad' }])
    queue.push(open(2))
    expect(delivered).toHaveLength(3)
  })

  it('holds again while the page reloads', () => {
    const queue = new LaunchQueue()
    const delivered: unknown[] = []
    queue.open((r) => delivered.push(r))
    queue.close()
    queue.push(open(1))
    expect(delivered).toEqual([])
    queue.open((r) => delivered.push(r))
    expect(delivered).toEqual([open(1)])
  })

  it('keeps only the newest 16 waiting requests', () => {
    const queue = new LaunchQueue()
    for (let i = 0; i < 40; i++) queue.push(open(i))
    const delivered: Array<{ request: { network: string } }> = []
    queue.open((r) => delivered.push(r as never))
    expect(delivered).toHaveLength(16)
    expect(delivered[0]!.request.network).toBe('n24')
  })
})
