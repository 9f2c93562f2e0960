import { beforeEach, describe, expect, it, vi } from 'vitest'
import { claimSingleInstance, forwardedArgs } from './single-instance'
import { app, fakeEvent, resetFakeElectron } from './testing/fake-electron'

vi.mock('electron', () => import('./testing/fake-electron'))

const ADDR = '0x52908400098527886e0f7030069857d2e4169ee7'

beforeEach(() => resetFakeElectron())

describe('single instance', () => {
  it('the first instance takes the lock, sending its own args as additional data', () => {
    expect(claimSingleInstance({ args: [ADDR], onSecondInstance: vi.fn() })).toBe(true)
    expect(app.requestSingleInstanceLock).toHaveBeenCalledWith({ chainscopeArgs: [ADDR] })
  })

  it('a second instance is told to quit', () => {
    app.lockAvailable = false
    const onSecond = vi.fn()
    expect(claimSingleInstance({ args: [ADDR], onSecondInstance: onSecond })).toBe(false)
    expect(app.listenerCount('second-instance')).toBe(0)
  })

  it("passes a second launch's args on, from additional data when present", () => {
    const onSecond = vi.fn()
    claimSingleInstance({ args: [], onSecondInstance: onSecond })
    app.emit('second-instance', fakeEvent(), ['/opt/chainscope', 'reordered'], '/home/u', {
      chainscopeArgs: [ADDR, '--network', 'beta'],
    })
    expect(onSecond).toHaveBeenLastCalledWith([ADDR, '--network', 'beta'])
  })

  it('falls back to the raw argv when additional data is missing or malformed', () => {
    const onSecond = vi.fn()
    claimSingleInstance({ args: [], onSecondInstance: onSecond })
    for (const data of [
      undefined,
      null,
      'x',
      { chainscopeArgs: 'x' },
      { chainscopeArgs: [1] },
      { chainscopeArgs: Array(40).fill('a') },
    ]) {
      app.emit('second-instance', fakeEvent(), ['/opt/chainscope', ADDR], '/home/u', data)
      expect(onSecond).toHaveBeenLastCalledWith([ADDR])
    }
  })

  it('checks forwarded data strictly', () => {
    expect(forwardedArgs({ chainscopeArgs: ['a'.repeat(2000)] })).toBeNull()
    expect(forwardedArgs({ chainscopeArgs: [] })).toEqual([])
  })
})
