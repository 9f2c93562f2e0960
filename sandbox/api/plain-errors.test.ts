import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { http } from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/** `--plain-errors`: 401 and 429 as plain text, without Retry-After. */
const KEY = 'plain-errors-key'
let sb: StartedSandbox

beforeAll(async () => {
  sb = await startSandbox({ args: ['--api-key', KEY, '--block-time', '0', '--quota', '2', '--plain-errors'] })
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await sb?.stop()
})

const rpc = (key: string): Promise<Awaited<ReturnType<typeof http>>> =>
  http(`${sb.info.rpc_url}/alpha/${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  })

describe('--plain-errors', () => {
  it('answers an unknown key with a plain-text 401', async () => {
    const r = await rpc('wrong-key-123')
    expect(r.status).toBe(401)
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(r.text).toMatch(/^Unauthorized: unknown API key/)
    expect(r.text).not.toContain('wrong-key-123')
  })

  it('answers the used-up quota with a plain-text 429 and no Retry-After', async () => {
    expect((await rpc(KEY)).status).toBe(200)
    expect((await rpc(KEY)).status).toBe(200)
    const r = await rpc(KEY)
    expect(r.status).toBe(429)
    expect(r.headers.get('retry-after')).toBeNull()
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(r.text).toMatch(/^Too Many Requests: daily quota of 2 requests used up/)
  })
})
