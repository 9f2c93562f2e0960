import { readdirSync, readFileSync, rmSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  BUNDLE_FORMAT,
  coreHash,
  entryOf,
  MANIFEST_META,
  manifestText,
  REPORT_FILE,
  type Manifest,
  type ManifestCore,
} from '@shared/domain/evidence'
import { Redactor } from '../util/logger'
import { EvidenceBundles } from './evidence-bundles'
// @ts-expect-error -- a plain Node script (no types): the one a recipient runs.
import { verifyBundle } from '../../../../scripts/verify-bundle.mjs'

const KEY = 'sk_live_abcdef1234567890'
let dir: string
let bundles: EvidenceBundles
const quiet = { info: () => {}, warn: () => {}, error: () => {} }
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-'))
  const redactor = new Redactor()
  redactor.add(KEY)
  bundles = new EvidenceBundles({ dataDir: dir, redactor, log: quiet })
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A bundle as the renderer makes it: data files, the manifest's core, the report stating its hash. */
function files(extra = ''): { path: string; text: string }[] {
  const data = [
    { path: 'data/case.json', text: JSON.stringify({ name: 'Drain', notes: `ünïcode ✓ ${extra}` }, null, 2) },
    {
      path: 'data/tx-alpha-0xabc.json',
      text: JSON.stringify({ pages: [{ asOf: '2030-01-01T00:00:00Z', items: [1, 2] }] }),
    },
  ]
  const core: ManifestCore = {
    format: BUNDLE_FORMAT,
    version: 1,
    title: 'Case: Drain',
    madeAt: '2030-01-02T00:00:00.000Z',
    algorithm: 'SHA-256',
    files: data.map((f) => entryOf(f.path, f.text)),
  }
  const report = `<!doctype html><html><head><meta name="${MANIFEST_META}" content="${coreHash(core)}"></head><body>Report</body></html>\n`
  const manifest: Manifest = { ...core, report: entryOf(REPORT_FILE, report) }
  return [...data, { path: REPORT_FILE, text: report }, { path: 'manifest.json', text: manifestText(manifest) }]
}

function send(list: { path: string; text: string }[], id = 'bundle-0001'): { folder: string; files: number } {
  for (const f of list) {
    // Parts as the renderer cuts them: here two per file.
    const half = Math.ceil(f.text.length / 2)
    bundles.part({ bundle: id, path: f.path, part: 0, text: f.text.slice(0, half), last: false })
    bundles.part({ bundle: id, path: f.path, part: 1, text: f.text.slice(half), last: true })
  }
  return bundles.write({ bundle: id, stem: 'case Drain/2030' })
}

const listed = (): string[] => ['report.html', 'manifest.json', 'data/case.json', 'data/tx-alpha-0xabc.json']

describe('evidence bundles', () => {
  it('writes a folder that verifies, in the app and with the Node script alike', () => {
    const w = send(files())
    expect(w.folder).toBe(join(dir, 'evidence', 'case-Drain-2030'))
    expect(readdirSync(w.folder).sort()).toEqual(['data', 'manifest.json', 'report.html'])
    expect(bundles.verify(w.folder).problems).toEqual([])
    expect(verifyBundle(w.folder)).toEqual([])
  })

  it('finds a changed byte in any file and names that file (app and script agree)', () => {
    const w = send(files())
    for (const file of listed()) {
      const full = join(w.folder, ...file.split('/'))
      const before = readFileSync(full)
      for (const at of [0, Math.floor(before.length / 2), before.length - 2]) {
        const changed = Buffer.from(before)
        changed[at] = changed[at]! ^ 0x01
        writeFileSync(full, changed)
        const app = bundles.verify(w.folder).problems
        expect(app.map((p) => p.file)).toContain(file)
        expect(verifyBundle(w.folder)).toEqual(app)
      }
      writeFileSync(full, before)
    }
    expect(bundles.verify(w.folder).problems).toEqual([])
  })

  it('finds a manifest edited to match an edited file (the report states the manifest hash)', () => {
    const w = send(files())
    const data = join(w.folder, 'data', 'case.json')
    writeFileSync(data, readFileSync(data, 'utf8').replace('Drain', 'Other'))
    const m = JSON.parse(readFileSync(join(w.folder, 'manifest.json'), 'utf8')) as Manifest
    m.files[0] = entryOf('data/case.json', readFileSync(data, 'utf8'))
    writeFileSync(join(w.folder, 'manifest.json'), manifestText(m))
    const problems = bundles.verify(w.folder).problems
    expect(problems).toEqual([{ file: 'manifest.json', message: expect.stringMatching(/report.html states/) }])
    expect(verifyBundle(w.folder)).toEqual(problems)
  })

  it('names a removed file and an added one', () => {
    const w = send(files())
    rmSync(join(w.folder, 'data', 'tx-alpha-0xabc.json'))
    writeFileSync(join(w.folder, 'data', 'extra.json'), '{}')
    const problems = bundles.verify(w.folder).problems.map((p) => p.file)
    expect(problems).toEqual(['data/tx-alpha-0xabc.json', 'data/extra.json'])
  })

  it('refuses a file holding the key and writes nothing', () => {
    const list = files(`the key ${KEY}`)
    expect(() => send(list)).toThrow(/data\/case.json was not saved: it holds this profile's API key/)
    expect(() => bundles.write({ bundle: 'bundle-0001', stem: 'x' })).toThrow(/did not arrive whole/)
    expect(() => readdirSync(join(dir, 'evidence'))).toThrow()
  })

  it('refuses a bundle whose manifest does not match its files, and a path outside the bundle', () => {
    const list = files()
    list[0]!.text += ' '
    expect(() => send(list)).toThrow(/data\/case.json no longer matches/)
    expect(() => bundles.part({ bundle: 'bundle-0002', path: '../x.json', part: 0, text: '', last: true })).toThrow(
      /not \.\.\/x\.json/,
    )
    expect(() => bundles.verify('relative/path')).toThrow(/full path/)
    expect(() => bundles.verify(join(dir, 'none'))).toThrow(/cannot be read as a folder/)
  })
})
