import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { AppError } from '../util/app-error'
import { systemClock } from '../util/clock'
import { httpAttempt } from './http-attempt'

describe('httpAttempt', () => {
  it('keeps the URL (and so the key) out of a network failure, cause and stack included', async () => {
    const url = 'http://127.0.0.1:9/rpc/alpha/sk_live_secret_4321?api_key=sk_live_secret_4321'
    const failing = (async () => {
      // What fetch throws for a URL it cannot use: its message quotes the URL.
      throw new TypeError(`Failed to parse URL from ${url}`, {
        cause: Object.assign(new Error(`connect ECONNREFUSED ${url}`), { code: 'ECONNREFUSED' }),
      })
    }) as typeof fetch
    const error = await httpAttempt({
      url,
      init: {},
      clock: systemClock,
      fetch: failing,
      timeoutMs: 1000,
      maxBodyBytes: 1024,
      what: 'the balances of 0x1234…abcd on alpha',
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).kind).toBe('offline')
    expect((error as AppError).message).toMatch(/connection refused/)
    expect(inspect(error, { depth: 10 })).not.toContain('sk_live_secret')
  })
})
