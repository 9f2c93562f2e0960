import { readFileSync, statSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/**
 * chainscope/import-cycles: no module may import itself back through other modules.
 *
 * In a cycle the load order depends on which module of the ring someone happens to import first,
 * so a value read while a module loads can still be undefined; and a newcomer cannot tell which
 * of the modules is the lower one. Type-only imports count too: they tie two modules together for
 * a reader just as much (`import type`, `import('…').T`, and `import()` calls are all edges).
 *
 * The graph is built once per lint run: each file's imports are read with TypeScript's
 * pre-processor (a scanner pass, no full parse), on demand from the linted file outward, and the
 * strongly connected components are found with Tarjan's algorithm and kept. Every import whose
 * target sits in the importer's component closes a cycle and is reported with the whole ring.
 * The linted file's own text is re-read from the editor buffer; if its imports changed the
 * components are recomputed (other files are read from disk once per process).
 */
const EXTENSIONS = ['.ts', '.tsx', '.vue', '.js', '.mjs', '.d.ts']
/** The one path alias (tsconfig's `paths`): `@shared/…` is `src/shared/…`. */
const ALIASES = { '@shared': 'src/shared' }
const WHY =
  'In a cycle the load order depends on which module is imported first (a value read at load time may still be undefined), and a newcomer cannot tell which module is the lower one. Move what both sides need (types, constants) into a small module both import. `import type` counts too.'

const states = new Map()

/** One graph per working directory (a lint run has one). */
function stateFor(cwd) {
  let state = states.get(cwd)
  if (!state) {
    state = { cwd, files: new Map(), exists: new Map(), scc: new Map() }
    states.set(cwd, state)
  }
  return state
}

function isFile(state, path) {
  let hit = state.exists.get(path)
  if (hit === undefined) {
    try {
      hit = statSync(path).isFile()
    } catch {
      hit = false
    }
    state.exists.set(path, hit)
  }
  return hit
}

/** The file a specifier names, or null for packages and built-ins. */
function resolveSpec(state, fromFile, spec) {
  let base = null
  if (spec.startsWith('.')) base = resolve(dirname(fromFile), spec)
  else {
    for (const [alias, dir] of Object.entries(ALIASES)) {
      if (spec === alias || spec.startsWith(`${alias}/`)) {
        base = resolve(state.cwd, dir, spec.slice(alias.length).replace(/^\//, ''))
        break
      }
    }
  }
  if (!base) return null
  if (isFile(state, base)) return base
  if (base.endsWith('.js') && isFile(state, `${base.slice(0, -3)}.ts`)) return `${base.slice(0, -3)}.ts`
  for (const ext of EXTENSIONS) if (isFile(state, base + ext)) return base + ext
  for (const ext of EXTENSIONS) if (isFile(state, `${base}/index${ext}`)) return `${base}/index${ext}`
  return null
}

/** The code TypeScript can scan: a .vue file's <script> blocks, any other file whole. */
function scriptText(file, text) {
  if (!file.endsWith('.vue')) return text
  const blocks = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1])
  return blocks.join('\n')
}

/** spec -> resolved file, for every import of the file (static, type-only, dynamic). */
function importsOf(state, file, text) {
  const edges = new Map()
  const { importedFiles } = ts.preProcessFile(scriptText(file, text), true, true)
  for (const { fileName } of importedFiles) {
    const target = resolveSpec(state, file, fileName)
    if (target && !edges.has(fileName)) edges.set(fileName, target)
  }
  return edges
}

function edgesOf(state, file) {
  let edges = state.files.get(file)
  if (!edges) {
    let text = ''
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      // An unreadable file imports nothing as far as cycles go; other rules and tsc report it.
    }
    edges = importsOf(state, file, text)
    state.files.set(file, edges)
  }
  return edges
}

/** Tarjan's strongly connected components, from `root` over what is not yet known. */
function computeScc(state, root) {
  if (state.scc.has(root)) return
  let index = 0
  const indexOf = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  // Iterative, so a deep import chain cannot overflow the call stack.
  const work = [{ node: root, targets: null, i: 0 }]
  while (work.length) {
    const frame = work[work.length - 1]
    const { node } = frame
    if (frame.targets === null) {
      indexOf.set(node, index)
      low.set(node, index)
      index++
      stack.push(node)
      onStack.add(node)
      frame.targets = [...new Set(edgesOf(state, node).values())]
    }
    if (frame.i < frame.targets.length) {
      const next = frame.targets[frame.i++]
      if (state.scc.has(next)) continue
      if (!indexOf.has(next)) work.push({ node: next, targets: null, i: 0 })
      else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indexOf.get(next)))
      continue
    }
    work.pop()
    if (work.length) {
      const parent = work[work.length - 1].node
      low.set(parent, Math.min(low.get(parent), low.get(node)))
    }
    if (low.get(node) === indexOf.get(node)) {
      const members = new Set()
      let member
      do {
        member = stack.pop()
        onStack.delete(member)
        members.add(member)
      } while (member !== node)
      for (const m of members) state.scc.set(m, members)
    }
  }
}

/** The shortest way from `from` back to `to` inside one component. */
function pathBack(state, from, to, members) {
  const previous = new Map([[from, null]])
  const queue = [from]
  while (queue.length) {
    const node = queue.shift()
    if (node === to) break
    for (const next of edgesOf(state, node).values()) {
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, node)
        queue.push(next)
      }
    }
  }
  const path = []
  for (let node = to; node !== null && node !== undefined; node = previous.get(node)) path.unshift(node)
  return path
}

function sameEdges(a, b) {
  if (a.size !== b.size) return false
  for (const [spec, target] of a) if (b.get(spec) !== target) return false
  return true
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles (type-only imports included)' },
    schema: [],
    messages: { cycle: 'Import cycle (chainscope/import-cycles): {{ring}}. {{why}}' },
  },
  create(context) {
    const file = context.filename
    const cwd = context.cwd
    const state = stateFor(cwd)
    const live = importsOf(state, file, context.sourceCode.text)
    const cached = state.files.get(file)
    if (cached && !sameEdges(cached, live)) state.scc.clear()
    state.files.set(file, live)
    computeScc(state, file)
    const members = state.scc.get(file)
    if (!members || members.size < 2) return {}

    const show = (path) => relative(cwd, path).split(sep).join('/')
    const reported = new Set()
    const visit = (node, spec) => {
      if (typeof spec !== 'string') return
      const target = live.get(spec)
      if (!target || !members.has(target) || reported.has(spec)) return
      reported.add(spec)
      const ring = [file, ...pathBack(state, target, file, members)].map(show).join(' → ')
      context.report({ node, messageId: 'cycle', data: { ring, why: WHY } })
    }
    const literal = (source) => (source && source.type === 'Literal' ? source.value : undefined)
    return {
      ImportDeclaration: (node) => visit(node, node.source.value),
      ExportNamedDeclaration: (node) => visit(node, literal(node.source)),
      ExportAllDeclaration: (node) => visit(node, literal(node.source)),
      ImportExpression: (node) => visit(node, literal(node.source)),
      TSImportType: (node) => visit(node, literal(node.source) ?? literal(node.argument?.literal)),
      TSImportEqualsDeclaration: (node) =>
        visit(
          node,
          node.moduleReference.type === 'TSExternalModuleReference'
            ? literal(node.moduleReference.expression)
            : undefined,
        ),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') visit(node, literal(node.arguments[0]))
      },
      // An import the scanner saw but no node above names (a form not listed): still reported, on line 1.
      'Program:exit': (program) => {
        for (const spec of live.keys()) visit(program, spec)
      },
    }
  },
}

export default { rules: { 'import-cycles': rule } }
