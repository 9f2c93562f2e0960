#!/usr/bin/env node
/**
 * `npm test`: typecheck (node and web), lint, formatting, unit tests, build, security lint and e2e, in
 * that order. Every step runs even when an earlier one failed (except e2e, which needs the
 * build). A check step counts as one test; Vitest and Playwright count their own tests. The
 * last line is `N passed, N failed, N skipped`, summing every suite.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const results = join(root, 'test-results')
mkdirSync(results, { recursive: true })
const only = process.argv.slice(2)
const totals = { passed: 0, failed: 0, skipped: 0 }
const summary = []

function run(cmd, args, env = {}) {
  const started = Date.now()
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0', ...env } })
  return { ok: r.status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) }
}

function check(name, cmd, args) {
  if (only.length && !only.includes(name)) return true
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`)
  const r = run(cmd, args)
  totals[r.ok ? 'passed' : 'failed'] += 1
  summary.push(`${name}: ${r.ok ? 'ok' : 'FAILED'} (${r.seconds} s)`)
  return r.ok
}

function suite(name, cmd, args, reportFile, count) {
  if (only.length && !only.includes(name)) return
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`)
  rmSync(reportFile, { force: true })
  const r = run(cmd, args)
  let counted = null
  try {
    counted = count(JSON.parse(readFileSync(reportFile, 'utf8')))
  } catch {
    counted = null
  }
  if (!counted) {
    totals.failed += 1
    summary.push(`${name}: FAILED, no report (${r.seconds} s)`)
    return
  }
  // A runner that exits non-zero with every test passing (a crash in a hook) still fails.
  if (!r.ok && counted.failed === 0) counted.failed = 1
  totals.passed += counted.passed
  totals.failed += counted.failed
  totals.skipped += counted.skipped
  summary.push(
    `${name}: ${counted.passed} passed, ${counted.failed} failed, ${counted.skipped} skipped (${r.seconds} s)`,
  )
}

const bin = (name) => join(root, 'node_modules', '.bin', name)

check('typecheck-node', bin('tsc'), ['-p', 'tsconfig.node.json'])
check('typecheck-web', bin('vue-tsc'), ['-p', 'tsconfig.web.json'])
check('typecheck-bench', bin('tsc'), ['-p', 'tsconfig.bench.json'])
check('lint', bin('eslint'), ['--max-warnings', '0', '.'])
check('format', bin('prettier'), ['--check', '.'])

const vitestReport = join(results, 'vitest-report.json')
suite(
  'unit',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  vitestReport,
  (j) => ({
    passed: j.numPassedTests,
    failed: j.numFailedTests + filesFailedWithoutTests(j),
    skipped: (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0),
  }),
)

const built = check('build', bin('electron-vite'), ['build'])
if (existsSync(join(root, 'scripts', 'electronegativity.mjs')))
  check('electronegativity', process.execPath, [join(root, 'scripts', 'electronegativity.mjs')])

const e2eReport = join(results, 'e2e-report.json')
if (built || !(only.length === 0 || only.includes('e2e'))) {
  suite('e2e', bin('playwright'), ['test'], e2eReport, (j) => {
    for (const reason of skipReasons(j)) summary.push(`e2e skipped: ${reason}`)
    return { passed: j.stats.expected + (j.stats.flaky ?? 0), failed: j.stats.unexpected, skipped: j.stats.skipped }
  })
} else if (only.length === 0 || only.includes('e2e')) {
  totals.failed += 1
  summary.push('e2e: FAILED, not run because the build failed')
}

/** Each distinct reason Playwright recorded for a skipped test, with how many it skipped. */
function skipReasons(report) {
  const counts = new Map()
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (!(t.results ?? []).some((r) => r.status === 'skipped')) continue
        const reason = `[${t.projectName}] ${(t.annotations ?? []).find((a) => a.type === 'skip')?.description ?? 'no reason given'}`
        counts.set(reason, (counts.get(reason) ?? 0) + 1)
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of report.suites ?? []) walk(suite)
  return [...counts].map(([reason, n]) => `${n} × ${reason}`)
}

/** A test file that failed to load (or failed in a hook) has no failed test; count it once. */
function filesFailedWithoutTests(j) {
  return (j.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length
}

console.log('\n=== summary')
for (const line of summary) console.log(line)
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(totals.failed === 0 ? 0 : 1)
