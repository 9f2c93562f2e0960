#!/usr/bin/env node
/**
 * The dead-code check of `npm run lint` (docs/decisions/dead-code-check.md): knip is not
 * installed, so this reads every module's imports with the TypeScript parser (no type check,
 * a few seconds) and fails on
 * - a value export (function, class, const, enum) in src/ that no other file imports: drop the
 *   `export`, or the code if nothing uses it at all;
 * - a module of the shipping tree that only specs import: it is test support, so it belongs
 *   under a testing/ folder (shipping code may not import testing/: chainscope/layers).
 * Type exports are left alone (they cost nothing at run time). A namespace import, `export *`
 * or dynamic `import()` counts as a use of every export of its target.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

const EXTENSIONS = ['.ts', '.vue', '.mts', '.js', '.mjs']
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', '.state', 'test-results', 'playwright-report', '.git'])

const isTest = (rel) => /\.(test|spec)\.ts$/.test(rel) || /(^|\/)testing\//.test(rel)
// Entry points: the build starts from them, so nothing imports them but their specs.
const ENTRIES = new Set(['src/preload/index.ts', 'src/main/index.ts', 'src/renderer/src/main.ts'])
// Generated files are written whole by their generator (its test compares the text).
const GENERATED = new Set(['src/main/core/balances/balance-reader-bytecode.ts'])
const isSpec = (rel) => /\.(test|spec)\.ts$/.test(rel)

function walk(dir, out) {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (EXTENSIONS.some((e) => name.endsWith(e)) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/** The script blocks of a .vue file (the template imports nothing). */
const vueScripts = (text) => [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n')

function resolveSpec(root, from, spec) {
  let base
  if (spec.startsWith('.')) base = resolve(dirname(from), spec)
  else if (spec === '@shared' || spec.startsWith('@shared/')) base = resolve(root, 'src/shared', spec.slice(8))
  else return null
  const tries = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`))]
  if (base.endsWith('.js')) tries.push(base.slice(0, -3) + '.ts')
  return tries.find((p) => existsSync(p) && statSync(p).isFile()) ?? null
}

const hasModifier = (node, kind) => (ts.getModifiers?.(node) ?? node.modifiers ?? []).some((m) => m.kind === kind)

/** What one file exports (values only, with their line) and imports (per target: names or '*'). */
function readModule(root, file) {
  const raw = readFileSync(file, 'utf8')
  const text = file.endsWith('.vue') ? vueScripts(raw) : raw
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const exports = new Map()
  const imports = []
  const localValues = new Set()
  const line = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
  const use = (spec, names) => {
    const target = resolveSpec(root, file, spec)
    if (target) imports.push({ target, names })
  }
  for (const st of source.statements) {
    const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword) && !hasModifier(st, ts.SyntaxKind.DefaultKeyword)
    if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isEnumDeclaration(st)) {
      if (st.name) localValues.add(st.name.text)
      if (exported && st.name) exports.set(st.name.text, line(st))
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue
        localValues.add(d.name.text)
        if (exported) exports.set(d.name.text, line(d))
      }
    } else if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const c = st.importClause
      const names = []
      if (c?.name) names.push('default')
      if (c?.namedBindings && ts.isNamespaceImport(c.namedBindings)) names.push('*')
      if (c?.namedBindings && ts.isNamedImports(c.namedBindings))
        for (const el of c.namedBindings.elements) names.push((el.propertyName ?? el.name).text)
      use(st.moduleSpecifier.text, names)
    } else if (ts.isExportDeclaration(st)) {
      if (st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
        const clause = st.exportClause
        if (!clause || ts.isNamespaceExport(clause)) use(st.moduleSpecifier.text, ['*'])
        else {
          use(
            st.moduleSpecifier.text,
            clause.elements.map((el) => (el.propertyName ?? el.name).text),
          )
          if (!st.isTypeOnly) for (const el of clause.elements) if (!el.isTypeOnly) exports.set(el.name.text, line(el))
        }
      } else if (st.exportClause && ts.isNamedExports(st.exportClause) && !st.isTypeOnly) {
        for (const el of st.exportClause.elements)
          if (!el.isTypeOnly) exports.set(el.name.text, { line: line(el), local: (el.propertyName ?? el.name).text })
      }
    }
  }
  // `export { a }` of a local: a value only if a value of that name is declared here.
  for (const [name, at] of exports)
    if (typeof at !== 'object') continue
    else if (localValues.has(at.local)) exports.set(name, at.line)
    else exports.delete(name)
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments
      if (arg && ts.isStringLiteral(arg)) use(arg.text, ['*'])
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      use(node.argument.literal.text, ['*'])
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return { exports, imports }
}

/**
 * The findings over a repository: `checked` are the folders whose exports must be used,
 * `consumers` every folder whose imports count as uses.
 */
export function deadExports({ root, checked = ['src'], consumers = ['src', 'sandbox', 'bench', 'e2e', 'scripts'] }) {
  const rel = (p) => relative(root, p).split(sep).join('/')
  const files = [...new Set(consumers.flatMap((d) => walk(resolve(root, d), [])))]
  const modules = new Map(files.map((f) => [f, readModule(root, f)]))
  const used = new Map()
  const importers = new Map()
  for (const [file, mod] of modules)
    for (const { target, names } of mod.imports) {
      if (target === file) continue
      if (!used.has(target)) used.set(target, new Set())
      names.forEach((n) => used.get(target).add(n))
      if (!importers.has(target)) importers.set(target, new Set())
      importers.get(target).add(rel(file))
    }
  const inChecked = (r) => checked.some((d) => r === d || r.startsWith(`${d}/`))
  const findings = []
  for (const [file, mod] of modules) {
    const r = rel(file)
    if (!inChecked(r) || isSpec(r) || GENERATED.has(r)) continue
    const names = used.get(file) ?? new Set()
    if (!names.has('*'))
      for (const [name, line] of mod.exports)
        if (!names.has(name))
          findings.push(
            `${r}:${line} "${name}" is exported but no other file imports it: drop the export, or the code if nothing uses it.`,
          )
    const by = [...(importers.get(file) ?? [])]
    if (!isTest(r) && !ENTRIES.has(r) && by.length > 0 && by.every(isTest))
      findings.push(
        `${r}:1 only specs import this module (${by.join(', ')}): it is test support, so move it under a testing/ folder.`,
      )
  }
  return findings.sort()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const findings = deadExports({ root: resolve(import.meta.dirname, '..') })
  for (const f of findings) console.error(f)
  if (findings.length) {
    console.error(`dead-exports: ${findings.length} finding(s) (docs/decisions/dead-code-check.md)`)
    process.exit(1)
  }
  console.log('dead-exports: no dead value export, no test support in the shipping tree')
}
