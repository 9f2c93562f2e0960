/**
 * chainscope/no-own-fetch-state: what main fetched goes through the one layer in
 * src/renderer/src/platform/fetched.ts (and a form's outcome through platform/action.ts), so a
 * store or component declares neither its own error ref (`ref<BridgeError | null>`) nor its
 * own late-answer guard (a `let` counter that is bumped and compared with `===`/`!==`).
 * Each one of those was a panel that had to remember stale-while-revalidate on its own, and
 * most did not (issue 38; docs/decisions/fetched-data-layer.md).
 */
const MESSAGE_ERROR_REF =
  'Fetch-state rule (chainscope/no-own-fetch-state): no ref<BridgeError | null> of your own. Read fetched data through fetched() (platform/fetched.ts) and a form outcome through action() (platform/action.ts), which hold the error, its time and the late-answer guard once.'
const MESSAGE_SEQ =
  'Fetch-state rule (chainscope/no-own-fetch-state): a hand-written request-sequence guard. fetched() (platform/fetched.ts) drops late answers for every view: use load/extend/current instead.'

const REF_CALLS = new Set(['ref', 'shallowRef'])

function isErrorRef(node, sourceCode) {
  if (node.callee.type !== 'Identifier' || !REF_CALLS.has(node.callee.name)) return false
  const args = node.typeArguments ?? node.typeParameters
  return !!args && /\bBridgeError\b/.test(sourceCode.getText(args))
}

/** `let x = 0` that is later bumped (`x++`, `++x`, `x += 1`) and compared for identity. */
function isSequenceGuard(declarator, context) {
  if (declarator.parent.kind !== 'let') return false
  if (declarator.init?.type !== 'Literal' || declarator.init.value !== 0) return false
  const [variable] = context.sourceCode.getDeclaredVariables(declarator)
  if (!variable) return false
  let bumped = false
  let compared = false
  for (const ref of variable.references) {
    const parent = ref.identifier.parent
    if (parent.type === 'UpdateExpression' || (parent.type === 'AssignmentExpression' && parent.operator === '+='))
      bumped = true
    if (parent.type === 'BinaryExpression' && ['===', '!==', '==', '!='].includes(parent.operator)) compared = true
  }
  return bumped && compared
}

export default {
  rules: {
    'no-own-fetch-state': {
      meta: {
        type: 'problem',
        docs: { description: 'Fetched data and its error go through platform/fetched.ts, not per store.' },
        schema: [],
      },
      create(context) {
        const sourceCode = context.sourceCode
        return {
          CallExpression(node) {
            if (isErrorRef(node, sourceCode)) context.report({ node, message: MESSAGE_ERROR_REF })
          },
          VariableDeclarator(node) {
            if (isSequenceGuard(node, context)) context.report({ node, message: MESSAGE_SEQ })
          },
        }
      },
    },
  },
}
