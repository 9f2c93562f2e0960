import { readdir, readFile, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { Readable } from 'node:stream'
import { createGunzip, gzip as gzipCb } from 'node:zlib'
import { z } from 'zod'
import type { SnapshotEntry } from '../data/snapshot-store'
import { isAbandonedTemp, writeFileAtomic } from '../util/atomic-file'
import { errorCode } from '@shared/guards'
import { breathe, CachedSearch, type CachedSearchState, type HeldItem, type ItemRow } from './cached-search'

/**
 * The cached search index on disk, so a restart answers at once instead of indexing every
 * cached page again (seconds for 100,000 transactions; bench/analysis.ts). It is a cache: a
 * file that is missing, damaged, of another format or written for other search words is
 * ignored and the index is built again from the snapshots, never trusted blindly.
 *
 * What is kept is the items the index found, with their sources, not the word indexes: those
 * are rebuilt from the items in a fraction of a second (cached-search.ts), while MiniSearch's
 * own saved form of 100,000 transactions took seconds to load.
 *
 * Layout: gzip of newline-separated JSON lines, so a load parses and checks it a slice at a
 * time with the event loop running between slices (one JSON text of tens of MB would hold
 * the main thread for a quarter second): a header (format, search-words schema, profile,
 * the snapshot files indexed with their stamps, line count), then the items. Compression and
 * decompression run on libuv's thread pool; the gzip checksum catches a torn or flipped file.
 */
const INDEX_FORMAT = 1
/**
 * What an item is found by. Raise it whenever search-docs.ts or the tokenising in
 * cached-search.ts changes: an index saved under another value is stale and rebuilt.
 */
const SEARCH_WORDS_VERSION = 1

const DOCS_PER_LINE = 2000
const gzip = promisify(gzipCb)

/**
 * The lines of gzip `bytes`, each as soon as it is decompressed: parsing the first lines
 * overlaps decompressing the rest (on the thread pool). Throws when the data is damaged, at
 * the latest at its end (the checksum).
 */
async function* gzipLines(bytes: Buffer): AsyncGenerator<string> {
  let pending: Buffer[] = []
  for await (const chunk of Readable.from([bytes]).pipe(
    createGunzip({ chunkSize: 256 * 1024 }),
  ) as AsyncIterable<Buffer>) {
    let start = 0
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, nl))
      yield Buffer.concat(pending).toString('utf8')
      pending = []
      start = nl + 1
    }
    if (start < chunk.length) pending.push(chunk.subarray(start))
  }
  yield Buffer.concat(pending).toString('utf8')
}

export interface SavedIndex {
  profile: string
  /** The snapshot files indexed, as the catalogue listed them then. */
  files: SnapshotEntry[]
  /** Per source not kept as a snapshot file (watchlists, notes): a digest of what was indexed. */
  digests: Record<string, string>
  state: CachedSearchState
}

export type LoadedIndex =
  | { ok: true; search: CachedSearch; files: SnapshotEntry[]; digests: Record<string, string> }
  | { ok: false; why: string }

const entry = z.tuple([z.string(), z.number(), z.number(), z.string(), z.string(), z.enum(['balances', 'page'])])
const header = z.object({
  format: z.literal('chainscope-search-index'),
  version: z.number(),
  words: z.number(),
  profile: z.string(),
  files: z.array(entry),
  digests: z.record(z.string(), z.string()),
  lines: z.number().int().nonnegative(),
  /** Every source named once; an item lists its sources by position here. */
  sources: z.array(z.string()),
})
const KINDS: ReadonlySet<unknown> = new Set(['transaction', 'address', 'watch-entry', 'note', 'label'])
const isText = (v: unknown): v is string => typeof v === 'string'
const isTextOrNull = (v: unknown): boolean => v === null || typeof v === 'string'
const isWords = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText)

/**
 * An item as a line holds it: its fields by position, its sources by number, and its hash
 * written once (0 stands for it in the id `tx|<network>|<hash>` and among the hex words;
 * a third of the file for transactions).
 */
type Row = ItemRow<string | 0, string | 0, number>

const txId = (network: string, hash: string) => `tx|${network}|${hash}`

const toRow = ([id, kind, network, address, hash, title, detail, hex, text]: HeldItem, sources: number[]): Row => [
  hash !== null && id === txId(network, hash) ? 0 : id,
  kind,
  network,
  address,
  hash,
  title,
  detail,
  hash === null ? hex : hex.map((w) => (w === hash ? 0 : w)),
  text,
  sources,
]

const isHexWords = (v: unknown, hash: unknown): v is (string | 0)[] =>
  Array.isArray(v) && v.every((w) => isText(w) || (w === 0 && isText(hash)))

/**
 * One line of items. Checked by hand, not with zod: for 100,000 items zod took a second of
 * the load, this a few tens of milliseconds.
 */
function readRows(value: unknown, sources: readonly string[], into: CachedSearchState['docs']): void {
  if (!Array.isArray(value)) throw new Error('an item line is not a list')
  for (const r of value as unknown[]) {
    const ok =
      Array.isArray(r) &&
      r.length === 10 &&
      (isText(r[0]) || (r[0] === 0 && isText(r[4]))) &&
      KINDS.has(r[1]) &&
      isText(r[2]) &&
      isTextOrNull(r[3]) &&
      isTextOrNull(r[4]) &&
      isText(r[5]) &&
      isText(r[6]) &&
      isHexWords(r[7], r[4]) &&
      isWords(r[8]) &&
      Array.isArray(r[9]) &&
      r[9].every((n) => typeof n === 'number' && sources[n] !== undefined)
    if (!ok) throw new Error('an item is not in the shape this version writes')
    const row = r as Row
    const [id, , network, , hash, , , hex, , from] = row
    const h = hash ?? ''
    // The parsed row becomes the held item in place: no item object, no new lists to make and collect.
    for (let i = 0; i < hex.length; i++) if (hex[i] === 0) hex[i] = h
    for (let i = 0; i < from.length; i++) (from as unknown as string[])[i] = sources[from[i]!]!
    if (id === 0) row[0] = txId(network, h)
    into.push(row as unknown as HeldItem)
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Writes `saved` atomically (a crash leaves the previous file); JSON is made a slice at a time. */
export async function saveSearchIndex(path: string, saved: SavedIndex): Promise<void> {
  const sourceNumber = new Map<string, number>()
  const number = (source: string): number => {
    let n = sourceNumber.get(source)
    if (n === undefined) sourceNumber.set(source, (n = sourceNumber.size))
    return n
  }
  const docLines = chunks(saved.state.docs, DOCS_PER_LINE)
  const body: string[] = []
  for (const chunk of docLines) {
    body.push(JSON.stringify(chunk.map((held) => toRow(held, held[9].map(number)))))
    await breathe()
  }
  const lines = [
    JSON.stringify({
      format: 'chainscope-search-index',
      version: INDEX_FORMAT,
      words: SEARCH_WORDS_VERSION,
      profile: saved.profile,
      files: saved.files.map((e) => [e.path, e.stamp, e.size, e.network, e.address, e.kind]),
      digests: saved.digests,
      lines: body.length,
      sources: [...sourceNumber.keys()],
    } satisfies z.input<typeof header>),
    ...body,
  ]
  await writeFileAtomic(path, await gzip(lines.join('\n'), { level: 4 }), { fsync: false })
  // A save cut short by a kill leaves its temp file (tens of MB): the next save removes it.
  for (const name of await readdir(dirname(path)).catch(() => []))
    if (isAbandonedTemp(name)) await rm(join(dirname(path), name), { force: true }).catch(() => undefined)
}

/** The index saved for `profile`, or why it cannot be used (then the caller builds it again). */
export async function loadSearchIndex(path: string, profile: string): Promise<LoadedIndex> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    return { ok: false, why: errorCode(error) === 'ENOENT' ? 'none saved' : `unreadable (${errorCode(error)})` }
  }
  // Each line is decoded when its turn comes: decoding the whole text at once held the
  // main thread for a tenth of a second or more.
  const lines = gzipLines(bytes)
  try {
    const nextLine = async (): Promise<string | null> => {
      const next = await lines.next()
      return next.done ? null : next.value
    }
    const head = header.safeParse(JSON.parse((await nextLine()) ?? ''))
    if (!head.success) return { ok: false, why: 'its header is not one this version writes' }
    const h = head.data
    if (h.version !== INDEX_FORMAT) return { ok: false, why: `format ${h.version}, not ${INDEX_FORMAT}` }
    if (h.words !== SEARCH_WORDS_VERSION) return { ok: false, why: 'stale: written for other search words' }
    if (h.profile !== profile) return { ok: false, why: 'written for another profile' }
    const docs: CachedSearchState['docs'] = []
    for (let i = 0; i < h.lines; i++) {
      const line = await nextLine()
      if (line === null) return { ok: false, why: 'lines are missing' }
      readRows(JSON.parse(line), h.sources, docs)
      await breathe()
    }
    if ((await nextLine()) !== null) return { ok: false, why: 'it holds more lines than its header says' }
    const search = await CachedSearch.fromState({ docs })
    const files = h.files.map(([path, stamp, size, network, address, kind]) => ({
      path,
      stamp,
      size,
      network,
      address,
      kind,
    }))
    return { ok: true, search, files, digests: h.digests }
  } catch (error) {
    return { ok: false, why: `damaged (${error instanceof Error ? error.message.slice(0, 120) : String(error)})` }
  } finally {
    // Stops the decompression when the file was given up before its end.
    await lines.return(undefined)
  }
}
