import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { watchParent } from './parent-watch'

/** The two signs of a parent gone (issue 38); the real process tree is in sandbox-orphans.test.ts. */
beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('watchParent', () => {
  it('reports a new parent pid (the orphan adopted by init) once', () => {
    let ppid = 4242
    const onGone = vi.fn()
    watchParent({ onGone, ppid: () => ppid, stdinIsPipe: () => false, intervalMs: 500 })
    vi.advanceTimersByTime(2000)
    expect(onGone).not.toHaveBeenCalled()
    ppid = 1
    vi.advanceTimersByTime(500)
    vi.advanceTimersByTime(5000)
    expect(onGone.mock.calls).toEqual([['its parent (pid 4242) is gone']])
  })

  it('reports the end of a stdin pipe, and ignores what is written to it', async () => {
    const stdin = new PassThrough()
    const onGone = vi.fn()
    watchParent({ onGone, stdin, ppid: () => 4242, stdinIsPipe: () => true })
    stdin.write('anything\n')
    await vi.advanceTimersByTimeAsync(1000)
    expect(onGone).not.toHaveBeenCalled()
    stdin.end()
    await vi.advanceTimersByTimeAsync(0)
    expect(onGone.mock.calls).toEqual([['its stdin was closed']])
  })

  it('does not watch a stdin that is no pipe (a terminal, /dev/null), nor a parent that is init', async () => {
    const stdin = new PassThrough()
    const onGone = vi.fn()
    let ppid = 1
    watchParent({ onGone, stdin, ppid: () => ppid, stdinIsPipe: () => false })
    stdin.end()
    ppid = 77
    await vi.advanceTimersByTimeAsync(5000)
    expect(onGone).not.toHaveBeenCalled()
  })

  it('stops watching when asked', async () => {
    let ppid = 4242
    const stdin = new PassThrough()
    const onGone = vi.fn()
    const stop = watchParent({ onGone, stdin, ppid: () => ppid, stdinIsPipe: () => true })
    stop()
    ppid = 1
    stdin.end()
    await vi.advanceTimersByTimeAsync(5000)
    expect(onGone).not.toHaveBeenCalled()
  })
})
