import { promisify } from 'node:util'
import { brotliCompress, brotliDecompress, constants } from 'node:zlib'

/**
 * How a snapshot file is kept on disk. A page of 50 transactions is about 130 KB of JSON that
 * repeats the same field names and parties on every item; brotli at quality 5 takes it to a
 * tenth or less (Blockscout's fixture items: 3.1 KB of JSON a transaction, 220 bytes
 * compressed) in about a millisecond, and reads it back in a tenth of that. Higher qualities
 * save a few percent more for 6-25 times the time. Both directions run on libuv's thread pool,
 * not on the main thread.
 *
 * Files written before compression (`.json`) are still read; they are rewritten compressed
 * the first time they are read (see SnapshotStore).
 */
export const COMPRESSED = '.br'

const compress = promisify(brotliCompress)
const decompress = promisify(brotliDecompress)

export function isSnapshotFile(name: string): boolean {
  return name.endsWith('.json') || name.endsWith(`.json${COMPRESSED}`)
}

export function isCompressed(path: string): boolean {
  return path.endsWith(COMPRESSED)
}

/** The file's name before compression: `tx-first.json` for `tx-first.json.br`. */
export function plainName(path: string): string {
  return isCompressed(path) ? path.slice(0, -COMPRESSED.length) : path
}

export function encodeSnapshot(text: string): Promise<Buffer> {
  return compress(text, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text),
    },
  })
}

/** The JSON text of a snapshot file's bytes; throws when a compressed file is damaged. */
export async function decodeSnapshot(path: string, bytes: Buffer): Promise<string> {
  return (isCompressed(path) ? await decompress(bytes) : bytes).toString('utf8')
}
