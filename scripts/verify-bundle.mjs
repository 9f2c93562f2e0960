#!/usr/bin/env node
/**
 * Verifies a Chainscope evidence bundle with Node alone (no install, no Chainscope):
 *
 *   node verify-bundle.mjs <bundle folder>
 *
 * Checks every file against its SHA-256 in manifest.json, that manifest.json is byte for byte as
 * Chainscope wrote it, that it matches the manifest hash report.html states, and that no file
 * was added. Prints each file that no longer matches; exits 0 when all match, 1 when not, 2 on
 * bad usage. The same rules as Chainscope's Verify (src/shared/domain/evidence.ts,
 * docs/decisions/evidence-bundle.md); this file is kept standalone so it can travel with a bundle.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'

const PATH = /^(?:report\.html|data\/[A-Za-z0-9._-]{1,120}\.json)$/
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex')

function walk(dir, root = dir, out = []) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) walk(full, root, out)
    else out.push(relative(root, full).split(sep).join('/'))
  }
  return out
}

function read(dir, path) {
  try {
    return readFileSync(join(dir, ...path.split('/')))
  } catch {
    return null
  }
}

/** The problems found in the bundle at `dir`, each `{ file, message }`; none when it verifies. */
export function verifyBundle(dir) {
  const raw = read(dir, 'manifest.json')
  if (!raw) return [{ file: 'manifest.json', message: 'manifest.json is missing: this is not an evidence bundle.' }]
  let m
  try {
    m = JSON.parse(raw.toString('utf8'))
    if (m.format !== 'chainscope-evidence' || !Array.isArray(m.files) || !m.report) throw new Error('not a manifest')
  } catch {
    return [{ file: 'manifest.json', message: 'manifest.json was changed: it is no longer a Chainscope manifest.' }]
  }
  const problems = []
  const listed = [...m.files, m.report]
  for (const f of listed) {
    if (typeof f.path !== 'string' || !PATH.test(f.path)) {
      problems.push({ file: 'manifest.json', message: `manifest.json was changed: it lists “${String(f.path)}”.` })
      continue
    }
    const bytes = read(dir, f.path)
    if (!bytes) problems.push({ file: f.path, message: `${f.path} is missing.` })
    else if (sha(bytes) !== f.sha256)
      problems.push({
        file: f.path,
        message: `${f.path} no longer matches its SHA-256 in the manifest: it was changed.`,
      })
  }
  if (sha(raw) !== sha(Buffer.from(`${JSON.stringify(m, null, 2)}\n`, 'utf8')))
    problems.push({ file: 'manifest.json', message: 'manifest.json was changed: it is not as Chainscope wrote it.' })
  const core = {
    format: m.format,
    version: m.version,
    title: m.title,
    madeAt: m.madeAt,
    algorithm: m.algorithm,
    files: m.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes })),
  }
  const report = read(dir, 'report.html')
  const stated = report
    ? /<meta name="chainscope-manifest-sha256" content="([0-9a-f]{64})">/.exec(report.toString('utf8'))?.[1]
    : undefined
  if (report && stated !== sha(Buffer.from(JSON.stringify(core), 'utf8')))
    problems.push({
      file: 'manifest.json',
      message: 'manifest.json does not match the manifest hash report.html states: one of them was changed.',
    })
  const known = new Set(['manifest.json', ...listed.map((f) => f.path)])
  for (const p of walk(dir))
    if (!known.has(p)) problems.push({ file: p, message: `${p} is not in the manifest: it was added.` })
  return problems
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2]
  if (!dir) {
    console.error('usage: node verify-bundle.mjs <bundle folder>')
    process.exit(2)
  }
  let problems
  try {
    problems = verifyBundle(dir)
  } catch (error) {
    console.error(`Cannot read ${dir}: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(2)
  }
  const report = read(dir, 'report.html')
  if (report) console.log(`report.html SHA-256: ${sha(report)}`)
  if (problems.length === 0) {
    console.log(`OK: every file of ${dir} matches its manifest.`)
    process.exit(0)
  }
  for (const p of problems) console.log(`CHANGED ${p.file}: ${p.message}`)
  process.exit(1)
}
