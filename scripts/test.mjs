#!/usr/bin/env node
/**
 * `npm test`: typecheck (node and web), lint, formatting, unit tests, build, security lint and e2e, in
 * that order. Every step runs even when an earlier one failed (except e2e, which needs the
 * build). A check step counts as one test; Vitest and Playwright count their own tests. The
 * last line is `N passed, N failed, N skipped`, summing every suite.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'

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

function suite(name, cmd, args, reportFile, count, failures = () => []) {
  if (only.length && !only.includes(name)) return
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`)
  rmSync(reportFile, { force: true })
  const r = run(cmd, args)
  let report = null
  let counted = null
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8'))
    counted = count(report)
  } catch {
    counted = null
  }
  // Naming the failures is a courtesy: a report it cannot read never changes the counts.
  let failed = []
  try {
    if (counted) failed = failures(report)
  } catch {
    failed = ['(the failed tests could not be listed from the report)']
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
  // The summary is what a CI log's tail keeps: name each failure there, not only thousands of lines up.
  for (const f of failed) summary.push(`${name} failed: ${f}`)
}

const bin = (name) => join(root, 'node_modules', '.bin', name)

check('typecheck-node', bin('tsc'), ['-p', 'tsconfig.node.json'])
check('typecheck-web', bin('vue-tsc'), ['-p', 'tsconfig.web.json'])
check('typecheck-bench', bin('tsc'), ['-p', 'tsconfig.bench.json'])
check('lint', bin('eslint'), ['--max-warnings', '0', '.'])
check('dead-exports', process.execPath, [join(root, 'scripts', 'dead-exports.mjs')])
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
  vitestFailures,
)

const built = check('build', bin('electron-vite'), ['build'])
if (existsSync(join(root, 'scripts', 'electronegativity.mjs')))
  check('electronegativity', process.execPath, [join(root, 'scripts', 'electronegativity.mjs')])

const e2eReport = join(results, 'e2e-report.json')
if (built || !(only.length === 0 || only.includes('e2e'))) {
  suite(
    'e2e',
    bin('playwright'),
    ['test'],
    e2eReport,
    (j) => {
      for (const reason of skipReasons(j)) summary.push(`e2e skipped: ${reason}`)
      return { passed: j.stats.expected + (j.stats.flaky ?? 0), failed: j.stats.unexpected, skipped: j.stats.skipped }
    },
    playwrightFailures,
  )
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

/** Each failed Vitest test as `file › name: first line of its message`, and each file that failed to load. */
function vitestFailures(j) {
  const out = []
  for (const f of j.testResults ?? []) {
    const file = relative(root, f.name)
    const failed = (f.assertionResults ?? []).filter((a) => a.status === 'failed')
    for (const a of failed) out.push(`${file} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`)
    if (f.status === 'failed' && failed.length === 0) out.push(`${file}: ${firstLine(f.message)}`)
  }
  return out
}

/** Each Playwright test whose outcome was unexpected, as `[project] file › title: first line of its error`. */
function playwrightFailures(report) {
  const out = []
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue
        const error = (t.results ?? []).map((r) => r.error?.message).find(Boolean)
        out.push(`[${t.projectName}] ${spec.file} › ${spec.title}: ${firstLine(error)}`)
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of report.suites ?? []) walk(suite)
  return out
}

function firstLine(text) {
  const line =
    (text ?? 'no message')
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .find((l) => l.trim()) ?? 'no message'
  return line.trim().slice(0, 300)
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
