import { describe, expect, it } from 'vitest'
import { encodeFunctionData } from 'viem'
import { approvalsAbi } from '@shared/domain/approvals'
import { makeTx, ME, OTHER, party } from '@shared/testing/service-samples'
import type { SnapshotEntry } from '../data/snapshot-store'
import { PageDigests } from './page-digests'

const TOKEN = '0x00000000000000000000000000000000000000aa'
const entry = (path: string, stamp = 1, size = 10): SnapshotEntry => ({
  path,
  network: 'alpha',
  address: ME.toLowerCase(),
  kind: 'page',
  stamp,
  size,
})
const approve = makeTx(1, {
  from: party(ME),
  to: party(TOKEN, { name: 'Token' }),
  raw_input: encodeFunctionData({ abi: approvalsAbi, functionName: 'approve', args: [OTHER as `0x${string}`, 5n] }),
})

describe('page digests', () => {
  it('reads a page once per version of its file, and again when it is rewritten', async () => {
    const digests = new PageDigests()
    let reads = 0
    const read = async () => {
      reads++
      return [approve]
    }
    const first = await digests.get(entry('a'), read)
    expect(first).toMatchObject({ transactions: 1, events: [{ token: TOKEN, via: 'approve' }] })
    expect(first!.parties.map((p) => p.name)).toContain('Token')
    expect(first!.times).toEqual([[approve.hash.toLowerCase(), approve.timestamp]])
    expect(await digests.get(entry('a'), read)).toBe(first)
    expect(reads).toBe(1)
    await digests.get(entry('a', 2), read)
    await digests.get(entry('a', 2, 11), read)
    expect(reads).toBe(3)
    // A page gone from disk is forgotten.
    expect(await digests.get(entry('a', 3), async () => null)).toBeNull()
    await digests.get(entry('a', 2, 11), read)
    expect(reads).toBe(4)
  })

  it('keeps at most its bound, the least recently used going first', async () => {
    const digests = new PageDigests(2)
    const asked: string[] = []
    const get = (path: string) =>
      digests.get(entry(path), async () => {
        asked.push(path)
        return [approve]
      })
    await get('a')
    await get('b')
    await get('a')
    await get('c')
    await get('a')
    await get('b')
    expect(asked).toEqual(['a', 'b', 'c', 'b'])
  })
})
