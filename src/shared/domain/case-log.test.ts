import { describe, expect, it } from 'vitest'
import { appendEntry, canonicalEntry, entryHash, GENESIS, verifyLog, type LogEntry } from './case-log'

const at = (m: number): string => new Date(Date.UTC(2030, 0, 1, 0, m)).toISOString()
function log(n: number): LogEntry[] {
  let out: LogEntry[] = []
  for (let i = 0; i < n; i++)
    out = appendEntry(out, {
      at: at(i),
      kind: i % 2 ? 'fetch' : 'change',
      what: `step ${i + 1}`,
      profile: i % 2 ? 'Sandbox' : null,
      cost: i % 2 ? '1 request' : null,
    })
  return out
}

describe('the activity log hash chain', () => {
  it('chains each entry to the one before by SHA-256 over the canonical encoding', () => {
    const l = log(3)
    expect(l[0]!.prev).toBe(GENESIS)
    expect(l[1]!.prev).toBe(l[0]!.hash)
    expect(l.map((e) => e.seq)).toEqual([1, 2, 3])
    const { hash, ...body } = l[1]!
    expect(canonicalEntry(body)).toBe(
      `["chainscope-log-1",2,"${at(1)}","fetch","step 2","Sandbox","1 request","${l[0]!.hash}"]`,
    )
    expect(entryHash(body)).toBe(hash)
    expect(verifyLog(l)).toBeNull()
    expect(verifyLog([])).toBeNull()
  })

  it('names an edited entry', () => {
    const l = log(4)
    l[2] = { ...l[2]!, what: 'step 3 (quietly changed)' }
    expect(verifyLog(l)).toEqual({
      entry: 3,
      message: expect.stringMatching(/^Entry 3 .*changed after it was written/),
    })
  })

  it('names an entry whose hash was recomputed after an edit (the next link breaks)', () => {
    const l = log(4)
    const { hash: _old, ...body } = { ...l[1]!, cost: '0 requests' }
    l[1] = { ...body, hash: entryHash(body) }
    expect(verifyLog(l)).toEqual({ entry: 3, message: expect.stringMatching(/^Entry 3 .*out of order/) })
  })

  it('names a removed entry', () => {
    const l = log(5)
    l.splice(2, 1)
    expect(verifyLog(l)).toEqual({
      entry: 3,
      message: expect.stringMatching(/^Entry 3 of the activity log was removed/),
    })
    const two = log(6)
    two.splice(1, 2)
    expect(verifyLog(two)?.message).toMatch(/^Entry 2 to 3 of the activity log were removed/)
  })

  it('names a reordered entry', () => {
    const l = log(4)
    ;[l[1], l[2]] = [l[2]!, l[1]!]
    expect(verifyLog(l)).toEqual({ entry: 3, message: expect.stringMatching(/^Entry 3 .*“step 3”.*out of order/) })
  })
})
