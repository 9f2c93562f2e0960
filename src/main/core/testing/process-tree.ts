import { readdirSync, readFileSync } from 'node:fs'

/**
 * Linux process tree from /proc (test support): who descends from whom, and who is still
 * alive. A zombie (state Z) has exited and counts as gone.
 */
export interface ProcInfo {
  pid: number
  ppid: number
  comm: string
  state: string
}

function read(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split at the last ')'.
    const open = stat.indexOf('(')
    const close = stat.lastIndexOf(')')
    const [state, ppid] = stat.slice(close + 2).split(' ')
    return { pid, ppid: Number(ppid), comm: stat.slice(open + 1, close), state: state ?? '?' }
  } catch {
    return null
  }
}

/** Every live process below `root` (children, grandchildren, …). */
export function descendants(root: number): ProcInfo[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => read(Number(name)))
    .filter((p): p is ProcInfo => p !== null && p.state !== 'Z')
  const out: ProcInfo[] = []
  const queue = [root]
  while (queue.length > 0) {
    const parent = queue.shift()!
    for (const p of all.filter((q) => q.ppid === parent)) {
      out.push(p)
      queue.push(p.pid)
    }
  }
  return out
}

export function isAlive(pid: number): boolean {
  const p = read(pid)
  return p !== null && p.state !== 'Z'
}
