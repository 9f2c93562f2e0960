import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import { BUNDLE_PATH, checkBundle, MANIFEST_FILE, utf8, type BundleProblem } from '@shared/domain/evidence'
import { AppError } from '../util/app-error'
import { diskProblem } from '../util/disk-error'
import type { KeyScan, Logger } from '../util/logger'
import { refuseWithKey } from '../reports/file-exit'

export interface EvidenceOptions {
  dataDir: string
  redactor: Pick<KeyScan, 'contains'>
  log: Logger
}

/** Files of one bundle at most, and bytes of one file read back by Verify. */
const MAX_FILES = 2000
const MAX_READ = 100_000_000

interface Pending {
  files: Map<string, string[]>
  done: Set<string>
}

/**
 * Evidence bundles (docs/decisions/evidence-bundle.md): the renderer sends each file of a bundle
 * in parts (as a download's check); each finished file is refused if it holds the API key (the
 * file exit's own check); `write` checks the manifest against the files and writes the folder
 * under `<dataDir>/evidence/`, whole or not at all. `verify` checks any bundle folder.
 */
export class EvidenceBundles {
  readonly #o: EvidenceOptions
  readonly #pending = new Map<string, Pending>()

  constructor(options: EvidenceOptions) {
    this.#o = options
  }

  get folder(): string {
    return join(this.#o.dataDir, 'evidence')
  }

  part(input: { bundle: string; path: string; part: number; text: string; last: boolean }): { checked: boolean } {
    if (!BUNDLE_PATH.test(input.path) && input.path !== MANIFEST_FILE)
      throw new AppError(
        'invalid-input',
        `A bundle holds report.html, manifest.json and data/*.json, not ${input.path}.`,
        {
          field: 'path',
        },
      )
    const b = this.#pending.get(input.bundle) ?? { files: new Map(), done: new Set() }
    if (this.#pending.size > 4 && !this.#pending.has(input.bundle))
      this.#pending.delete(this.#pending.keys().next().value!)
    this.#pending.set(input.bundle, b)
    const parts = b.files.get(input.path) ?? []
    if (input.part !== parts.length || b.done.has(input.path)) {
      this.#pending.delete(input.bundle)
      throw new AppError('conflict', `${input.path} came out of order; export the bundle again.`, { field: 'part' })
    }
    if (b.files.size >= MAX_FILES && !b.files.has(input.path))
      throw new AppError('invalid-input', `A bundle holds at most ${MAX_FILES} files.`)
    parts.push(input.text)
    b.files.set(input.path, parts)
    if (!input.last) return { checked: false }
    b.done.add(input.path)
    try {
      refuseWithKey(this.#o, input.path, parts.join(''))
    } catch (error) {
      this.#pending.delete(input.bundle)
      throw error
    }
    return { checked: true }
  }

  /** Writes the bundle sent as `bundle` to a new folder named from `stem`; answers its path. */
  write(input: { bundle: string; stem: string }): { folder: string; files: number } {
    const b = this.#pending.get(input.bundle)
    this.#pending.delete(input.bundle)
    if (!b || b.done.size !== b.files.size || b.done.size === 0)
      throw new AppError('conflict', 'The bundle did not arrive whole; export it again.')
    const texts = new Map([...b.files].map(([p, parts]) => [p, parts.join('')]))
    const problems = checkBundle((p) => (texts.has(p) ? utf8(texts.get(p)!) : null), [...texts.keys()])
    if (problems.length > 0) throw new AppError('internal', `The bundle was not written: ${problems[0]!.message}`)
    const stem = input.stem.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'bundle'
    let folder = join(this.folder, stem)
    for (let n = 2; existsSync(folder); n++) folder = join(this.folder, `${stem}-${n}`)
    const partial = `${folder}.partial-${process.pid}`
    try {
      mkdirSync(join(partial, 'data'), { recursive: true })
      for (const [p, text] of texts) writeFileSync(join(partial, ...p.split('/')), text, 'utf8')
      renameSync(partial, folder)
    } catch (error) {
      rmSync(partial, { recursive: true, force: true })
      throw new AppError('internal', `The bundle was not written (${diskProblem(error)}); nothing was kept.`)
    }
    this.#o.log.info(`evidence bundle written: ${texts.size} files`)
    return { folder, files: texts.size }
  }

  /** Checks the bundle in `folder`: each file that no longer matches is named. */
  verify(folder: string): { folder: string; problems: BundleProblem[]; files: number } {
    if (!isAbsolute(folder))
      throw new AppError('invalid-input', 'Give the bundle folder as a full path (for example /home/me/bundle).', {
        field: 'folder',
      })
    let present: string[]
    try {
      if (!statSync(folder).isDirectory()) throw new Error('not a folder')
      present = walk(folder)
    } catch (error) {
      throw new AppError('not-found', `${folder} cannot be read as a folder (${diskProblem(error)}).`, {
        field: 'folder',
      })
    }
    const read = (p: string): Uint8Array | null => {
      try {
        const full = join(folder, ...p.split('/'))
        return statSync(full).size > MAX_READ ? null : readFileSync(full)
      } catch {
        return null
      }
    }
    return { folder, problems: checkBundle(read, present), files: present.length }
  }
}

function walk(dir: string, root = dir, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (out.length > MAX_FILES) break
    const full = join(dir, name)
    if (statSync(full).isDirectory()) walk(full, root, out)
    else out.push(relative(root, full).split(sep).join('/'))
  }
  return out
}
