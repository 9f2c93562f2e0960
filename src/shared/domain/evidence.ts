import { sha256 } from 'viem'

/**
 * An evidence bundle: a folder with `report.html`, the data it shows under `data/`, and
 * `manifest.json` of SHA-256 per file (docs/decisions/evidence-bundle.md). The report states the
 * hash of the manifest's core (everything but the report's own entry), so the report and the
 * manifest vouch for each other; `scripts/verify-bundle.mjs` checks the same with Node alone.
 */
export const REPORT_FILE = 'report.html'
export const MANIFEST_FILE = 'manifest.json'
export const BUNDLE_FORMAT = 'chainscope-evidence'
/** A file a bundle may hold: the report or a data file; nothing else, no folder above. */
export const BUNDLE_PATH = /^(?:report\.html|data\/[A-Za-z0-9._-]{1,120}\.json)$/
/** Where the report states the manifest's hash (a meta tag, read by Verify). */
export const MANIFEST_META = 'chainscope-manifest-sha256'

export interface ManifestEntry {
  path: string
  sha256: string
  bytes: number
}

export interface ManifestCore {
  format: typeof BUNDLE_FORMAT
  version: 1
  title: string
  madeAt: string
  algorithm: 'SHA-256'
  files: ManifestEntry[]
}

export interface Manifest extends ManifestCore {
  report: ManifestEntry
}

const encoder = new TextEncoder()
export const utf8 = (text: string): Uint8Array => encoder.encode(text)
const sha256Hex = (bytes: Uint8Array): string => sha256(bytes).slice(2)

export function entryOf(path: string, text: string): ManifestEntry {
  const bytes = utf8(text)
  return { path, sha256: sha256Hex(bytes), bytes: bytes.length }
}

/** The core's hash: SHA-256 of its JSON (keys in the order above, no spaces). */
export function coreHash(m: ManifestCore): string {
  const core: ManifestCore = {
    format: m.format,
    version: m.version,
    title: m.title,
    madeAt: m.madeAt,
    algorithm: m.algorithm,
    files: m.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes })),
  }
  return sha256Hex(utf8(JSON.stringify(core)))
}

/** The manifest file's text: exactly this, so a changed byte anywhere in it is found. */
export function manifestText(m: Manifest): string {
  return `${JSON.stringify(m, null, 2)}\n`
}

export interface BundleProblem {
  file: string
  message: string
}

/**
 * Checks a bundle: every file listed matches its hash, the manifest is as Chainscope wrote it and
 * matches the hash the report states, and no file was added. `read` gives a file's bytes (null:
 * missing); `present` lists every file in the folder (relative, `/`-separated).
 */
export function checkBundle(read: (path: string) => Uint8Array | null, present: readonly string[]): BundleProblem[] {
  const raw = read(MANIFEST_FILE)
  if (!raw) return [{ file: MANIFEST_FILE, message: 'manifest.json is missing: this is not an evidence bundle.' }]
  let m: Manifest
  try {
    m = JSON.parse(new TextDecoder().decode(raw)) as Manifest
    if (m.format !== BUNDLE_FORMAT || !Array.isArray(m.files) || !m.report) throw new Error('not a manifest')
  } catch {
    return [{ file: MANIFEST_FILE, message: 'manifest.json was changed: it is no longer a Chainscope manifest.' }]
  }
  const problems: BundleProblem[] = []
  const listed = [...m.files, m.report]
  for (const f of listed) {
    if (typeof f.path !== 'string' || !BUNDLE_PATH.test(f.path)) {
      problems.push({ file: MANIFEST_FILE, message: `manifest.json was changed: it lists “${String(f.path)}”.` })
      continue
    }
    const bytes = read(f.path)
    if (!bytes) problems.push({ file: f.path, message: `${f.path} is missing.` })
    else if (sha256Hex(bytes) !== f.sha256)
      problems.push({
        file: f.path,
        message: `${f.path} no longer matches its SHA-256 in the manifest: it was changed.`,
      })
  }
  if (sha256Hex(raw) !== sha256Hex(utf8(manifestText(m))))
    problems.push({ file: MANIFEST_FILE, message: 'manifest.json was changed: it is not as Chainscope wrote it.' })
  const report = read(REPORT_FILE)
  const stated = report
    ? new RegExp(`<meta name="${MANIFEST_META}" content="([0-9a-f]{64})">`).exec(new TextDecoder().decode(report))?.[1]
    : undefined
  if (report && stated !== coreHash(m))
    problems.push({
      file: MANIFEST_FILE,
      message: 'manifest.json does not match the manifest hash report.html states: one of them was changed.',
    })
  const known = new Set([MANIFEST_FILE, ...listed.map((f) => f.path)])
  for (const p of present)
    if (!known.has(p)) problems.push({ file: p, message: `${p} is not in the manifest: it was added.` })
  return problems
}
