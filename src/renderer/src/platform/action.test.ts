import { describe, expect, it } from 'vitest'
import { fail, ok } from '@shared/bridge/errors'
import { action } from './action'

describe('action', () => {
  it('answers the value, or null with the error and its time; a cancelled call is quiet', async () => {
    const a = action()
    expect(await a.run(async () => ok(5))).toBe(5)
    expect(a.error.value).toBeNull()
    const running = a.run(async () => fail({ kind: 'conflict', message: 'taken' }))
    expect(a.busy.value).toBe(true)
    expect(await running).toBeNull()
    expect(a.busy.value).toBe(false)
    expect(a.error.value).toEqual({ kind: 'conflict', message: 'taken' })
    expect(a.errorAt.value).toBeGreaterThan(0)
    expect(await a.run(async () => fail({ kind: 'cancelled', message: 'stopped' }))).toBeNull()
    expect(a.error.value).toBeNull()
  })
})
