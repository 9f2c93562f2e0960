/**
 * What `npm start` says about expected failures: one line each, what happened and what to do,
 * never a stack trace. Pure functions of the failed process's output, so each wording is tested.
 */

const OFFLINE =
  /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo|socket hang up/i

/** The Electron runtime download (spawnSync result of electron/install.js) failed. */
export function describeFetchFailure(result) {
  const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`
  if (result.error?.code === 'ETIMEDOUT' || result.signal === 'SIGTERM')
    return 'The Electron runtime download timed out after 2 minutes'
  if (OFFLINE.test(output) || OFFLINE.test(result.error?.message ?? ''))
    return 'The Electron runtime could not be downloaded (no connection to its download server)'
  const first = output
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !/^at /.test(l) && !/^Downloading/i.test(l))
  return `The Electron runtime could not be downloaded (${first ?? `exit ${result.status}`})`
}

/** The value of `--port` among the arguments passed to the web host, or its default. */
export function portOf(args, env = process.env) {
  const i = args.findIndex((a) => a === '--port' || a.startsWith('--port='))
  if (i < 0) return env.CHAINSCOPE_PORT ?? '7419'
  return args[i].includes('=') ? args[i].slice('--port='.length) : (args[i + 1] ?? '')
}

/** The web host exited before printing its address; `tail` is the end of its stderr. */
export function describeWebHostFailure(tail, port) {
  if (/EADDRINUSE|address already in use/i.test(tail)) {
    return `Port ${port} is already in use (another Chainscope, or another program): stop it, or start on another port with npm start -- --port ${Number(port) + 1 || 7420}`
  }
  if (/EACCES/.test(tail))
    return `Port ${port} needs privileges this user lacks: start on a port above 1024 with npm start -- --port 7420`
  const said = /could not start: (.*)$/m.exec(tail)?.[1]
  const last =
    said ??
    tail
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^at /.test(l))
      .pop()
  return `The web host could not start (${last ?? 'no message'}); fix that and run npm start again.`
}

/** How this platform opens a URL in the default browser. */
export function openerFor(platform, override) {
  if (override) return { command: override, args: [] }
  if (platform === 'darwin') return { command: 'open', args: [] }
  // `start` is a cmd built-in; its first quoted argument is a window title.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] }
  return { command: 'xdg-open', args: [] }
}
