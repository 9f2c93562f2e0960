import { builtinModules } from 'node:module'
import { dirname, relative, resolve, sep } from 'node:path'

/**
 * chainscope/layers: the folder names the layer (docs/architecture.md), and an import that crosses
 * layers the wrong way fails lint with a message that says why (after VS Code's code-layering).
 * Inside the renderer the folders are rooms with the same kind of rule (after its
 * code-import-patterns): pages → features (another feature only through its index.ts) →
 * platform → ui → @shared.
 */
const ROOT = resolve(import.meta.dirname, '..')
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))
const UI_PACKAGES = ['vue', 'pinia', 'vue-router', '@vue/', '@tanstack/vue-virtual', 'chart.js']

const LAYERS = [
  { name: 'shared', dir: 'src/shared' },
  { name: 'renderer', dir: 'src/renderer' },
  { name: 'preload', dir: 'src/preload' },
  // src/main is three layers: the host-agnostic core runs under both hosts, so it may import
  // neither host; the two hosts never import each other.
  { name: 'core', dir: 'src/main/core' },
  { name: 'electron-host', dir: 'src/main/electron' },
  { name: 'web-host', dir: 'src/main/web' },
  { name: 'main', dir: 'src/main' },
  { name: 'sandbox', dir: 'sandbox' },
]

const MAIN_LAYERS = new Set(['core', 'electron-host', 'web-host', 'main'])
const RENDERER_SRC = 'src/renderer/src'
// What a ui/ widget may import besides ui/ and @shared: the view library, headless primitives,
// toasts and the charts. Pinia and vue-router are left out on purpose: a widget holds no store
// and knows no route.
const UI_WIDGET_PACKAGES = ['vue', '@vue/', 'reka-ui', 'vue-sonner', 'chart.js', 'chartjs-adapter-date-fns']
const TEST_PACKAGES = ['vitest', '@vue/test-utils', 'fast-check']
const dirOf = (layer) => LAYERS.find((l) => l.name === layer)?.dir ?? layer

function layerOf(absPath) {
  const rel = relative(ROOT, absPath).split(sep).join('/')
  return LAYERS.find((l) => rel === l.dir || rel.startsWith(`${l.dir}/`))?.name ?? null
}

const inPackages = (list, spec) => list.some((p) => spec === p || spec.startsWith(p.endsWith('/') ? p : `${p}/`))
const isUiPackage = (spec) => inPackages(UI_PACKAGES, spec)
const isNode = (spec) => NODE_BUILTINS.has(spec) || NODE_BUILTINS.has(spec.split('/')[0]) || spec.startsWith('node:')
const isElectron = (spec) => spec === 'electron' || spec.startsWith('electron/')

/** Rules every part of src/main keeps. */
function checkMain(spec, toLayer) {
  if (toLayer === 'renderer')
    return 'src/main must not import src/renderer: the UI runs in another process; push events through the bridge.'
  if (toLayer === 'sandbox')
    return "src/main must not import the sandbox's code: it starts the sandbox as a child process and talks to it over HTTP like the real service."
  if (isUiPackage(spec)) return `src/main has no UI: "${spec}" belongs in src/renderer.`
  return null
}

/**
 * The room of a file inside src/renderer/src (docs/architecture.md, "What each room may import"): pages → features →
 * platform → ui → @shared, plus testing/ (fakes for tests) and the app root (main.ts, App.vue,
 * router.ts), which composes pages. Returns { room, feature, internal } or null outside it.
 */
function rendererRoom(absPath) {
  const rel = relative(resolve(ROOT, RENDERER_SRC), absPath).split(sep).join('/')
  if (rel.startsWith('..')) return null
  const parts = rel.split('/')
  if (parts.length === 1) return { room: 'app' }
  if (parts[0] === 'features') {
    const rest = parts.slice(2)
    const viaIndex = rest.length === 0 || (rest.length === 1 && /^index(\.ts)?$/.test(rest[0]))
    return { room: 'features', feature: parts[1], internal: !viaIndex }
  }
  return { room: parts[0] }
}

/**
 * Every room of the renderer, named: a folder the rule does not know is refused rather than
 * allowed (deny by default), since an unnamed room has no place in the order and could import
 * anything. A new room is added here, with its rules, and in docs/architecture.md.
 */
const RENDERER_ROOMS = new Set(['app', 'pages', 'features', 'platform', 'ui', 'testing'])

function unknownRoom(room, where) {
  return `${where} "${room}/" is not a room of the renderer (${[...RENDERER_ROOMS].filter((r) => r !== 'app').join(', ')}, or the app root): the rule cannot tell what it may import, so it refuses it. Put the file in one of the rooms, or name the new room in eslint-rules/layers.js and docs/architecture.md with what it may import.`
}

/** The renderer's rooms, after VS Code's code-import-patterns inside its layers. */
function checkRendererRooms(file, spec, target, isTest) {
  const from = rendererRoom(file)
  if (!from) return null
  const to = target ? rendererRoom(target) : null
  const bare = !spec.startsWith('.') && !spec.startsWith('/') && !spec.startsWith('@shared')
  if (!RENDERER_ROOMS.has(from.room)) return unknownRoom(from.room, 'A file in')
  if (to && !RENDERER_ROOMS.has(to.room)) return unknownRoom(to.room, `"${spec}" is in`)
  switch (from.room) {
    case 'ui':
      if (to && ['platform', 'features', 'pages', 'app'].includes(to.room))
        return `ui/ holds props-in, events-out widgets any feature can reuse; it must not import ${to.room === 'app' ? 'the app root' : `${to.room}/`} ("${spec}"). Take the fact as a prop: the caller, or a thin platform/ wrapper (platform/Live*.vue), reads the store.`
      if (spec === 'pinia' || spec.startsWith('pinia/'))
        return 'ui/ widgets hold no store: take the state as a prop and let the caller (or a platform/ wrapper) read the store.'
      if (bare && !inPackages(UI_WIDGET_PACKAGES, spec) && !(isTest && inPackages(TEST_PACKAGES, spec)))
        return `ui/ may import only ui/, @shared and the view libraries (${UI_WIDGET_PACKAGES.join(', ')}), not "${spec}": a widget that reaches for app services can no longer be reused anywhere.`
      return null
    case 'platform':
      if (to?.room === 'features' || to?.room === 'pages' || to?.room === 'app')
        return `platform/ is what every feature stands on (stores, the bridge, notices); it must not import ${to.room === 'app' ? 'the app root' : `${to.room}/`} ("${spec}"): that would tie the ground to one room above it. Move the shared piece down into platform/ or ui/.`
      return null
    case 'features':
      if (to?.room === 'pages' || to?.room === 'app')
        return `features/${from.feature} must not import ${to.room === 'app' ? 'the app root' : 'pages/'} ("${spec}"): a page composes features, never the other way. Move the piece into a feature or platform/.`
      if (to?.room === 'features' && to.feature !== from.feature && to.internal)
        return `features/${from.feature} may reach features/${to.feature} only through its index ("…/features/${to.feature}"), not "${spec}": the index is the feature's public face, so it can change its insides without breaking its neighbours. Export what you need there.`
      return null
    case 'pages':
    case 'app':
      if (to?.room === 'features' && to.internal)
        return `${from.room === 'app' ? 'The app root' : 'pages/'} composes features through their index ("…/features/${to.feature}"), not "${spec}": a feature's insides are its own. Export what the page needs from features/${to.feature}/index.ts.`
      return null
    default:
      return null
  }
}

/** A folder named testing/ anywhere: fakes, samples and harnesses for specs. */
const isTestingPath = (rel) => /(^|\/)testing(\/|$)/.test(rel)

/**
 * No code that ships imports a testing/ module, anywhere in src/ (`@shared/testing`,
 * `core/testing`, the renderer's `testing/`): test support would ship, and a fake could
 * stand in for a real part unseen. Specs and testing/ itself may.
 */
function shippingTesting(file, spec, target, isTest) {
  if (isTest || !target) return null
  const from = relative(ROOT, file).split(sep).join('/')
  if (!from.startsWith('src/') || isTestingPath(from)) return null
  const to = relative(ROOT, target).split(sep).join('/')
  if (!isTestingPath(to)) return null
  return `"${spec}": testing/ holds fakes and samples for specs; code that ships must not import it. Move a helper only specs use under a testing/ folder, and what ships out of it.`
}

/** Returns the reason an import is not allowed, or null. */
function check({ fromLayer, spec, target, isTest, file }) {
  const toLayer = target ? layerOf(target) : null
  switch (fromLayer) {
    case 'shared':
      if (isElectron(spec))
        return 'src/shared is pure TypeScript shared by every layer; it must not import electron (main, preload and the renderer each run elsewhere).'
      if (isNode(spec)) return `src/shared also runs in the renderer, where Node built-ins like "${spec}" do not exist.`
      if (isUiPackage(spec))
        return `src/shared also runs in main and the sandbox, which have no UI: "${spec}" belongs in src/renderer.`
      if (toLayer && toLayer !== 'shared') return `src/shared may import only src/shared, not ${dirOf(toLayer)}.`
      return null
    case 'renderer':
      if (MAIN_LAYERS.has(toLayer))
        return 'src/renderer must never import src/main: the renderer talks to main only through the bridge (src/renderer/src/platform/bridge), and main holds the API key.'
      if (toLayer === 'preload')
        return 'src/renderer must not import src/preload: the preload exposes the bridge on window; use src/renderer/src/platform/bridge.'
      if (toLayer === 'sandbox')
        return 'src/renderer must not import the sandbox: it is a separate service reached through main.'
      if (isElectron(spec))
        return 'src/renderer runs sandboxed without Node or Electron APIs; reach main through the bridge instead of importing electron.'
      if (isNode(spec))
        return `src/renderer runs in a browser page: Node built-in "${spec}" is not available there; ask main through the bridge.`
      if (spec === 'keytar') return 'src/renderer must never touch the keychain: the API key stays in main.'
      return checkRendererRooms(file, spec, target, isTest)
    case 'core':
      if (isElectron(spec))
        return 'src/main/core runs under the web host too, where there is no Electron: keep "electron" in src/main/electron and pass what the core needs in as options.'
      if (toLayer === 'electron-host')
        return 'src/main/core must not import src/main/electron: the core is host-agnostic; the Electron glue imports the core, not the other way.'
      if (toLayer === 'web-host')
        return 'src/main/core must not import src/main/web: the core is host-agnostic; the web host imports the core, not the other way.'
      return checkMain(spec, toLayer)
    case 'electron-host':
      if (toLayer === 'web-host')
        return 'src/main/electron must not import src/main/web: the two hosts share only src/main/core.'
      return checkMain(spec, toLayer)
    case 'web-host':
      if (isElectron(spec))
        return 'src/main/web runs in plain Node without Electron; "electron" belongs in src/main/electron.'
      if (toLayer === 'electron-host')
        return 'src/main/web must not import src/main/electron: the two hosts share only src/main/core.'
      return checkMain(spec, toLayer)
    case 'main':
      return checkMain(spec, toLayer)
    case 'preload':
      if (toLayer && toLayer !== 'shared' && toLayer !== 'preload')
        return `src/preload may import only src/shared and electron, not ${dirOf(toLayer)}: it must stay a thin, auditable bridge.`
      // A spec beside the preload runs under Vitest in Node and never ships in the preload.
      if (isTest && (spec === 'vitest' || spec.startsWith('vitest/'))) return null
      if (!toLayer && !isElectron(spec) && !spec.startsWith('.'))
        return `src/preload may import only src/shared and electron, not "${spec}": it runs sandboxed and must stay a thin, auditable bridge.`
      return null
    case 'sandbox': {
      if (target) {
        const rel = relative(ROOT, target).split(sep).join('/')
        if (rel.startsWith('src/') && !rel.startsWith('src/shared/') && rel !== 'src/shared') {
          return 'sandbox/ may import from src/ only src/shared: it stands in for the real service and must not know the app.'
        }
      }
      if (isElectron(spec) || isUiPackage(spec))
        return `sandbox/ is a plain Node service; "${spec}" does not belong there.`
      return null
    }
    default:
      return null
  }
}

/**
 * One way to name shared code: from anywhere outside src/shared (main, preload, the renderer,
 * the sandbox, benches, e2e, scripts) it is `@shared/…`, so a line reads the same wherever it
 * moves and a move never breaks it. Inside src/shared, siblings are relative.
 */
function sharedStyle(fromLayer, spec, target) {
  if (fromLayer === 'shared' || !spec.startsWith('.') || !target || layerOf(target) !== 'shared') return null
  const rest = relative(resolve(ROOT, 'src/shared'), target).split(sep).join('/')
  return `shared code is imported as "@shared/${rest}", not "${spec}": one name for it everywhere, so a file that moves keeps its imports.`
}

function resolveTarget(file, spec) {
  if (spec.startsWith('.')) return resolve(dirname(file), spec)
  if (spec.startsWith('@shared/') || spec === '@shared')
    return resolve(ROOT, 'src/shared', spec.slice('@shared'.length).replace(/^\//, ''))
  if (spec.startsWith('/')) return spec
  return null
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the layer rules of docs/architecture.md' },
    schema: [],
    messages: { layer: 'Layer rule (chainscope/layers): {{reason}}' },
  },
  create(context) {
    const file = context.filename
    const fromLayer = layerOf(file)
    const inRepo = !relative(ROOT, file).startsWith('..')
    if (!fromLayer && !inRepo) return {}
    const visit = (node, source) => {
      if (!source || typeof source.value !== 'string') return
      const spec = source.value
      const target = resolveTarget(file, spec)
      const isTest = /\.(test|spec)\.ts$/.test(file)
      const reason =
        sharedStyle(fromLayer, spec, target) ??
        shippingTesting(file, spec, target, isTest) ??
        (fromLayer ? check({ fromLayer, spec, target, isTest, file }) : null)
      if (reason) context.report({ node, messageId: 'layer', data: { reason } })
    }
    return {
      ImportDeclaration: (node) => visit(node, node.source),
      ExportNamedDeclaration: (node) => visit(node, node.source),
      ExportAllDeclaration: (node) => visit(node, node.source),
      ImportExpression: (node) => visit(node, node.source.type === 'Literal' ? node.source : null),
      CallExpression: (node) => {
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          node.arguments[0]?.type === 'Literal'
        ) {
          visit(node, node.arguments[0])
        }
      },
    }
  },
}

export default { rules: { layers: rule } }
