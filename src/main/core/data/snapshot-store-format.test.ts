import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Transaction } from '@shared/domain/service-schemas'
import { clone, readFixture } from '@shared/testing/blockscout-fixtures'
import { balanceItem, transaction } from '../testing/service-fixtures'
import { approvalsDigester } from '../approvals/saved-digest'
import { SnapshotStore } from './snapshot-store'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'snapshot-format-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const A = '0x00000000000000000000000000000000000000aa'
const folder = () => join(dir, 'p', 'alpha', A)
const page = (n: number) => ({
  fetchedAt: n,
  items: [transaction(n, 100 - n, 1)],
  unreadable: [],
  nextCursor: `c${n + 1}`,
})
/** A file as Chainscope wrote it before compression: plain JSON, version 1. */
const legacy = (name: string, value: object, mtime: Date) => {
  mkdirSync(folder(), { recursive: true })
  writeFileSync(join(folder(), name), JSON.stringify({ version: 1, ...value }))
  utimesSync(join(folder(), name), mtime, mtime)
}

describe('SnapshotStore on disk', () => {
  it('writes compressed files that read back the same, in a fraction of the JSON', async () => {
    const store = new SnapshotStore({ root: dir })
    const snapshot = { ...page(1), items: Array.from({ length: 50 }, (_, i) => transaction(i, 1000 - i, 3)) }
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, snapshot)
    await store.writeBalances('p', 'alpha', A, { fetchedAt: 2, items: [balanceItem('7')] })
    expect(readdirSync(folder()).sort()).toEqual(['balances.json.br', 'tx-first.json.br'])
    const bytes = readFileSync(join(folder(), 'tx-first.json.br'))
    const json = JSON.stringify({ version: 1, ...snapshot })
    expect(() => JSON.parse(bytes.toString('utf8'))).toThrow()
    expect(brotliDecompressSync(bytes).toString('utf8')).toBe(json)
    expect(bytes.length).toBeLessThan(json.length / 4)
    const fresh = new SnapshotStore({ root: dir })
    expect(await fresh.readPage('p', 'alpha', A, null)).toEqual(snapshot)
    expect((await fresh.readBalances('p', 'alpha', A))?.items).toEqual([balanceItem('7')])
    const catalogue = await fresh.catalogue('p')
    expect(catalogue.map((e) => [e.kind, e.size])).toEqual(
      expect.arrayContaining([
        ['page', bytes.length],
        ['balances', statSync(join(folder(), 'balances.json.br')).size],
      ]),
    )
  })

  it('reads files written before compression and rewrites them compressed, keeping their age', async () => {
    const old = new Date('2026-01-02T03:04:05.000Z')
    legacy('tx-first.json', page(1), old)
    legacy('balances.json', { fetchedAt: 5, items: [balanceItem('9')] }, old)
    const store = new SnapshotStore({ root: dir })
    expect((await store.catalogue('p')).map((e) => e.path.slice(folder().length + 1)).sort()).toEqual([
      'balances.json',
      'tx-first.json',
    ])
    expect(await store.readPage('p', 'alpha', A, null)).toEqual(page(1))
    expect((await store.readBalances('p', 'alpha', A))?.items).toEqual([balanceItem('9')])
    await store.flush()
    expect(readdirSync(folder()).sort()).toEqual(['balances.json.br', 'tx-first.json.br'])
    expect(statSync(join(folder(), 'tx-first.json.br')).mtime.toISOString()).toBe(old.toISOString())
    // An entry listed before the migration still reads, from the compressed file.
    const restarted = new SnapshotStore({ root: dir })
    expect(await restarted.readPage('p', 'alpha', A, null)).toEqual(page(1))
    // Kept its place: the migrated file is older than a new one, so it is evicted first.
    await restarted.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: 'c9' }, page(9))
    const order = (await restarted.catalogue('p')).sort((a, b) => a.stamp - b.stamp).map((e) => e.kind)
    expect(order.at(-1)).toBe('page')
    expect((await restarted.catalogue('p')).find((e) => e.path.endsWith('tx-first.json.br'))?.stamp).toBe(old.getTime())
  })

  it('prefers the compressed file when a stop left both forms, and removes the old one', async () => {
    const store = new SnapshotStore({ root: dir })
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(2))
    legacy('tx-first.json', page(1), new Date())
    const fresh = new SnapshotStore({ root: dir })
    expect(await fresh.readPage('p', 'alpha', A, null)).toEqual(page(2))
    expect(readdirSync(folder())).toEqual(['tx-first.json.br'])
    expect((await fresh.catalogue('p')).length).toBe(1)
  })

  it('holds a week of a full quota (350,000 transactions) within the default 256 MiB, with the digests the app keeps', async () => {
    // Blockscout's own items, made distinct as a week of them would be (hash, block, nonce, time).
    const items = readFixture('transactions').items.map((i) => i.item as Transaction)
    const store = new SnapshotStore({ root: dir, digester: approvalsDigester })
    let n = 0
    for (let p = 0; p < 20; p++) {
      const txs = Array.from({ length: 50 }, (_, j) => {
        const tx = clone(items[(p * 50 + j) % items.length]!)
        n++
        return {
          ...tx,
          hash: `0x${(n * 2654435761).toString(16).padStart(64, '0')}`,
          block: 20_000_000 + n * 3,
          nonce: n,
          timestamp: new Date(Date.UTC(2026, 0, 1) + n * 13_000).toISOString(),
        }
      })
      await store.writePage(
        { profileId: 'p', network: 'alpha', address: A, cursor: p === 0 ? null : `c${p}` },
        { fetchedAt: 1, items: txs, nextCursor: null },
      )
    }
    await store.flush()
    expect(readdirSync(join(dir, 'p', 'alpha', A, 'digests'))).toHaveLength(20)
    const perTx = store.totalBytes / n
    expect(perTx * 350_000).toBeLessThan(256 * 1024 * 1024)
  })

  it('a writer killed mid-write leaves the last good file, read after a restart', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(import.meta.dirname, '../testing/snapshot-crash-writer.ts'), dir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let written = 0
    await new Promise<void>((done, fail) => {
      child.on('error', fail)
      child.on('exit', (code) => (code === null ? done() : fail(new Error(`the writer exited with ${code}`))))
      child.stdout.on('data', (chunk: Buffer) => {
        written = Math.max(written, ...chunk.toString().trim().split('\n').map(Number))
        // Killed while its next write is under way (it writes without pause).
        if (written >= 3) child.kill('SIGKILL')
      })
    })
    // The kill may or may not catch a temp file: one of the dead writer is made sure of, and
    // one of a live writer (this process) must be left alone.
    writeFileSync(join(folder(), `.tx-first.json.br.${child.pid}.99.tmp`), 'half a page')
    writeFileSync(join(folder(), `.tx-first.json.br.${process.pid}.99.tmp`), 'being written')
    const store = new SnapshotStore({ root: dir })
    const kept = await store.readPage('p', 'alpha', A, null)
    expect(kept?.fetchedAt).toBeGreaterThanOrEqual(3)
    expect(kept?.items).toHaveLength(50)
    expect((await store.catalogue('p')).map((e) => e.kind)).toEqual(['page'])
    expect(readdirSync(folder()).filter((name) => name.endsWith('.tmp'))).toEqual([
      `.tx-first.json.br.${process.pid}.99.tmp`,
    ])
  })

  it('reports a disk that refuses writes once, and keeps reading what it has', async () => {
    const store0 = new SnapshotStore({ root: join(dir, 'snapshots') })
    await store0.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    const warnings: string[] = []
    // The snapshot folder of profile "q" cannot be made: a file stands where it would go.
    writeFileSync(join(dir, 'snapshots', 'q'), 'in the way')
    const store = new SnapshotStore({
      root: join(dir, 'snapshots'),
      log: { info: () => {}, warn: (m) => warnings.push(m), error: () => {} },
    })
    await store.writePage({ profileId: 'q', network: 'alpha', address: A, cursor: null }, page(2))
    await store.writePage({ profileId: 'q', network: 'alpha', address: A, cursor: 'c2' }, page(3))
    await store.writeBalances('q', 'alpha', A, { fetchedAt: 1, items: [] })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/not saved/)
    expect(await store.readPage('p', 'alpha', A, null)).toEqual(page(1))
    expect(await store.readPage('q', 'alpha', A, null)).toBeNull()
  })
})
