#!/usr/bin/env node
// Compares one bench on two builds in alternating rounds (ABBA order) and prints every run and,
// per number, the median of each side and their ratio (head / base). Absolute times on a shared
// machine are noise; the ratio of medians over alternating rounds is what is read.
//
//   node scripts/bench-compare.mjs --base ../old --head . [--rounds 5] [--timeout-s 900] -- npm run -s bench:analysis
//
// Every line of the bench's stdout of the shape `label: key=number key=number …` is read. A label
// printed again in one run (bench:client prints `watch-check:` four times, one per check) is a
// measurement of its own: the second is `watch-check#2`, and so on, never pooled with the first.
import { spawn } from 'node:child_process'

function parseArgs(argv) {
  const at = argv.indexOf('--')
  if (at < 0) throw new Error('Give the bench command after --')
  const opts = { rounds: 5, timeoutS: 900, base: null, head: null }
  const own = argv.slice(0, at)
  for (let i = 0; i < own.length; i += 2) {
    const [name, value] = [own[i], own[i + 1]]
    if (name === '--base') opts.base = value
    else if (name === '--head') opts.head = value
    else if (name === '--rounds') opts.rounds = Number(value)
    else if (name === '--timeout-s') opts.timeoutS = Number(value)
    else throw new Error(`Unknown option ${name}`)
  }
  if (!opts.base || !opts.head) throw new Error('Give --base <dir> and --head <dir>')
  if (!Number.isInteger(opts.rounds) || opts.rounds < 1) throw new Error('--rounds must be a whole number above 0')
  return { ...opts, command: argv.slice(at + 1) }
}

/** Runs the bench in `cwd` in its own process group; kills the group at the deadline and waits. */
function runOnce(command, cwd, timeoutS) {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), timeoutS * 1000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve(out)
      else reject(new Error(`${command.join(' ')} in ${cwd} ended with ${signal ?? `exit ${code}`}`))
    })
  })
}

/** `label: a=1 b=2.5` → [['label a', 1], ['label b', 2.5]]; a label's second line is `label#2`. */
export function numbersOf(stdout) {
  const found = []
  const seen = new Map()
  for (const line of stdout.split('\n')) {
    const m = /^([\w .-]+?):?\s+(?=\S+=)/.exec(line)
    const pairs = [...line.matchAll(/(\w+)=(-?\d+(?:\.\d+)?)(?=\s|$)/g)]
    if (pairs.length === 0) continue
    const bare = m ? m[1].trim() : ''
    const nth = (seen.get(bare) ?? 0) + 1
    seen.set(bare, nth)
    const label = nth === 1 ? bare : `${bare}#${nth}`
    for (const [, key, value] of pairs) found.push([`${label} ${key}`.trim(), Number(value)])
  }
  return found
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** Per number, the median of each side and their ratio (head / base), as printed lines. */
export function summary(runs, rounds) {
  const lines = [`median of ${rounds} alternating rounds (ratio = head / base)`]
  for (const [key, baseValues] of runs.base) {
    const headValues = runs.head.get(key)
    if (!headValues) continue
    const [b, h] = [median(baseValues), median(headValues)]
    lines.push(`${key}: base=${b} head=${h} ratio=${b === 0 ? 'n/a' : (h / b).toFixed(3)}`)
  }
  return lines
}

async function main() {
  const opts = parseArgs(process.argv.slice(2))
  const runs = { base: new Map(), head: new Map() }
  for (let round = 0; round < opts.rounds; round++) {
    const order = round % 2 === 0 ? ['base', 'head'] : ['head', 'base']
    for (const side of order) {
      const out = await runOnce(opts.command, opts[side], opts.timeoutS)
      const nums = numbersOf(out)
      console.log(`round ${round + 1} ${side}: ${nums.map(([k, v]) => `${k}=${v}`).join(' ')}`)
      for (const [k, v] of nums) runs[side].set(k, [...(runs[side].get(k) ?? []), v])
    }
  }
  console.log(`\n${summary(runs, opts.rounds).join('\n')}`)
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
