import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The documents stay in the repository and findable (issue 44): every document a comment or a
 * lint message cites exists in this clone, the README fits on a few screens, every decision
 * record is in the index, and every relative link in the documents leads somewhere.
 */
const ROOT = resolve(import.meta.dirname, '..')
const CODE_DIRS = ['src', 'sandbox', 'e2e', 'bench', 'scripts', 'eslint-rules', 'build']
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', 'test-results', '.state', 'seed-state', 'testing-data'])
const CODE_FILE = /\.(ts|mts|cts|js|mjs|cjs|vue|sh)$/
const README_LIMIT_BYTES = 15_000

function walk(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return []
  const found: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (!SKIP_DIRS.has(name)) found.push(...walk(path, keep))
    } else if (keep(path)) found.push(path)
  }
  return found
}

function codeFiles(): string[] {
  const top = readdirSync(ROOT)
    .filter((name) => CODE_FILE.test(name))
    .map((name) => join(ROOT, name))
  return [...top, ...CODE_DIRS.flatMap((d) => walk(join(ROOT, d), (p) => CODE_FILE.test(p)))]
}

/** Every `something.md` a text names, with its line, e.g. `docs/style.md` or `../sandbox/README.md`. */
function citedDocuments(text: string): { line: number; doc: string }[] {
  const cited: { line: number; doc: string }[] = []
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(?<![\w./-])((?:\.{1,2}\/)*[\w-][\w./-]*\.md)\b/g))
      cited.push({ line: i + 1, doc: m[1]! })
  })
  return cited
}

/** A citation resolves from the repository's root or from the citing file's folder. */
function exists(doc: string, from: string): boolean {
  return existsSync(resolve(ROOT, doc)) || existsSync(resolve(dirname(from), doc))
}

describe('documents', () => {
  it('finds citations the way a reader writes them', () => {
    expect(
      citedDocuments('// see STYLE.md 9 and (docs/style.md rule 2); ../sandbox/README.md').map((c) => c.doc),
    ).toEqual(['STYLE.md', 'docs/style.md', '../sandbox/README.md'])
  })

  it('every document a comment or lint message cites is in the repository', () => {
    // This file's own examples are about citations, not citations.
    const files = codeFiles().filter((file) => file !== import.meta.filename)
    expect(files.length).toBeGreaterThan(100)
    const readmeHeadings = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]!.toLowerCase(),
    )
    const missing: string[] = []
    let citations = 0
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      for (const { line, doc } of citedDocuments(text)) {
        citations++
        if (!exists(doc, file)) missing.push(`${relative(ROOT, file)}:${line} cites ${doc}`)
      }
      // A section of the README cited by its heading, as `README "Choices"` once was, must still be there.
      for (const m of text.matchAll(/\bREADME "([^"]+)"/g))
        if (!readmeHeadings.some((h) => h.startsWith(m[1]!.toLowerCase())))
          missing.push(`${relative(ROOT, file)} cites README "${m[1]}", which has no such heading`)
    }
    expect(missing).toEqual([])
    // The check looked at something: the code does cite its documents.
    expect(citations).toBeGreaterThan(10)
  })

  it(`README.md is under ${README_LIMIT_BYTES} bytes`, () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(README_LIMIT_BYTES)
  })

  it('every decision record is linked from docs/decisions/README.md', () => {
    const dir = join(ROOT, 'docs', 'decisions')
    const index = readFileSync(join(dir, 'README.md'), 'utf8')
    const records = readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'README.md')
    expect(records.length).toBeGreaterThan(0)
    expect(records.filter((name) => !index.includes(`](${name})`))).toEqual([])
  })

  it('every user guide page shows a screenshot that e2e/user-guide.spec.ts takes', () => {
    const dir = join(ROOT, 'docs', 'user-guide')
    const spec = readFileSync(join(ROOT, 'e2e', 'user-guide.spec.ts'), 'utf8')
    const pages = readdirSync(dir).filter((name) => name.endsWith('.md') && name !== 'README.md')
    expect(pages.length).toBeGreaterThanOrEqual(8)
    const without = pages.filter((page) => {
      const shots = [...readFileSync(join(dir, page), 'utf8').matchAll(/!\[[^\]]*\]\(img\/([\w-]+)\.png\)/g)]
      return !shots.some((m) => spec.includes(`'${m[1]}'`) && existsSync(join(dir, 'img', `${m[1]}.png`)))
    })
    expect(without).toEqual([])
  })

  it('every relative link in the documents leads to a file', () => {
    const docs = [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'), (p) => p.endsWith('.md'))]
    const broken: string[] = []
    for (const file of docs) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!
        if (!target || /^[a-z]+:/.test(target)) continue
        if (!existsSync(resolve(dirname(file), target))) broken.push(`${relative(ROOT, file)} → ${m[1]}`)
      }
    }
    expect(broken).toEqual([])
  })
})
