import {
  BUNDLE_FORMAT,
  coreHash,
  entryOf,
  MANIFEST_FILE,
  manifestText,
  REPORT_FILE,
  type Manifest,
  type ManifestCore,
} from '@shared/domain/evidence'
import { logHead } from '@shared/domain/case-log'
import { bridge } from '../../platform/bridge'
import { partsOf, randomId } from '../../platform/save-file'
import { buildReportHtml } from './report-html'
import type { ReportInput } from './report-model'
import type { ReportSource } from './report-sources'

export interface BundleFile {
  path: string
  text: string
}

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`

/** Every source once (an address reported and expanded is one file). */
function sourcesOf(input: ReportInput): ReportSource[] {
  const seen = new Map<string, ReportSource>()
  for (const s of input.subjects)
    for (const src of [...(s.sources ?? []), ...(s.expanded ?? []).flatMap((p) => p.sources ?? [])])
      if (!seen.has(src.file)) seen.set(src.file, src)
  return [...seen.values()]
}

/**
 * The files of an evidence bundle (docs/decisions/evidence-bundle.md): the case as saved, each
 * source as the service sent it with its request and time, the report stating the manifest's
 * hash, and the manifest of SHA-256 per file.
 */
export function bundleFiles(input: ReportInput): { files: BundleFile[]; manifestHash: string } {
  const data: BundleFile[] = sourcesOf(input).map((s) => ({
    path: `data/${s.file}`,
    text: json({
      network: s.network,
      address: s.address,
      kind: s.kind,
      request: s.request,
      asOf: s.asOf,
      body: s.body,
    }),
  }))
  if (input.caseFile)
    data.unshift({
      path: 'data/case.json',
      text: json({ case: input.caseFile, logHead: logHead(input.caseFile.log) }),
    })
  const core: ManifestCore = {
    format: BUNDLE_FORMAT,
    version: 1,
    title: input.title,
    madeAt: input.generatedAt,
    algorithm: 'SHA-256',
    files: data.map((f) => entryOf(f.path, f.text)),
  }
  const manifestHash = coreHash(core)
  const html = buildReportHtml({ ...input, manifestHash })
  const manifest: Manifest = { ...core, report: entryOf(REPORT_FILE, html) }
  return {
    files: [...data, { path: REPORT_FILE, text: html }, { path: MANIFEST_FILE, text: manifestText(manifest) }],
    manifestHash,
  }
}

/**
 * Sends the bundle to main file by file, in parts (each checked for the key as every file that
 * leaves), and has main write it as a new folder. Answers the folder, or the error to show.
 */
export async function saveBundle(
  files: readonly BundleFile[],
  stem: string,
  progress?: (done: number, total: number) => void,
): Promise<{ ok: true; folder: string } | { ok: false; message: string }> {
  const bundle = randomId()
  for (const [i, f] of files.entries()) {
    const parts = partsOf(f.text)
    for (const [part, text] of parts.entries()) {
      const r = await bridge.invoke('evidence.part', {
        bundle,
        path: f.path,
        part,
        text,
        last: part === parts.length - 1,
      })
      if (!r.ok) return { ok: false, message: r.error.message }
    }
    progress?.(i + 1, files.length)
  }
  const w = await bridge.invoke('evidence.write', { bundle, stem })
  return w.ok ? { ok: true, folder: w.value.folder } : { ok: false, message: w.error.message }
}
