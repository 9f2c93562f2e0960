import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { writeLaunchPage } from '../scripts/launch-page.mjs'
import { expect, test } from './fixtures'

/**
 * The web host's secret stays with the page it opened: the cookie Chromium sends to every port
 * of 127.0.0.1 opens nothing on its own, the launch token works once, and the page `--open`
 * writes logs a browser in from a file (scripts/launch-page.mjs).
 */
test.skip(({ appHost }) => appHost !== 'web', 'web host only: Electron has no HTTP bridge')

/** Another program on 127.0.0.1: records the headers of every request it gets. */
async function listener(): Promise<{ server: Server; port: number; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = []
  const server = createServer((req, res) => {
    seen.push(req.headers)
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other</title>')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { server, port: (server.address() as { port: number }).port, seen }
}

test('the cookie the browser sends to another 127.0.0.1 port opens no bridge, and the launch token works once', async ({
  app,
  webHost,
  playwright,
}) => {
  const { origin, url } = webHost!
  const token = new URL(url).searchParams.get('token')!
  await expect(app.getByTestId('app-info')).toContainText('web host')
  const other = await listener()
  try {
    // The user visits another local program in the same browser, then comes back.
    await app.goto(`http://127.0.0.1:${other.port}/`)
    await app.goto(origin)
    const sent = other.seen.map((h) => h.cookie ?? '').join('; ')
    // Chromium does send it (cookies are not scoped by port); noted, not required.
    test.info().annotations.push({ type: 'cookie sent to the other port', description: sent.replace(/=.*/, '=…') })
    expect(sent).not.toContain(token)
    // Whatever it got, replayed from outside the browser, opens no bridge call or event stream.
    const replay = await playwright.request.newContext({ extraHTTPHeaders: { cookie: sent } })
    const call = await replay.post(`${origin}/bridge/invoke`, { data: { name: 'app.info', input: {} } })
    expect(call.status()).toBe(401)
    expect((await replay.get(`${origin}/bridge/events`)).status()).toBe(401)
    await replay.dispose()
    // The launch token again, from anywhere: refused, no cookie, saying why.
    const anonymous = await playwright.request.newContext()
    const again = await anonymous.get(url, { maxRedirects: 0 })
    expect(again.status()).toBe(401)
    expect(again.headers()['set-cookie']).toBeUndefined()
    expect(await again.json()).toMatchObject({ error: 'token-used' })
    await anonymous.dispose()
    // A second browser profile with the used address gets no session either.
    const stranger = await app.context().browser()!.newContext()
    const strangerPage = await stranger.newPage()
    const refused = await strangerPage.goto(url)
    expect(refused?.status()).toBe(401)
    expect(await stranger.cookies(origin)).toEqual([])
    await stranger.close()
  } finally {
    await new Promise((r) => other.server.close(r))
  }
  // The page the token opened keeps working, a reload included.
  await expect(app.getByTestId('app-info')).toContainText('web host')
  await app.reload()
  await expect(app.getByTestId('app-info')).toContainText('web host')
})

test('the page --open writes (a file only the user reads) opens the app in the browser', async ({
  webHost,
  playwright,
  launchOptions,
}) => {
  const page = writeLaunchPage(webHost!.url)
  const browser = await playwright.chromium.launch(launchOptions)
  try {
    const tab = await browser.newPage()
    await tab.goto(page.fileUrl)
    await expect(tab.getByTestId('app-info')).toContainText('web host')
    expect(new URL(tab.url()).searchParams.get('token')).toBeNull()
    // The file is now worthless: its token was used.
    const second = await (await browser.newContext()).newPage()
    await second.goto(page.fileUrl)
    await expect(second.locator('body')).toContainText('already used')
  } finally {
    await browser.close()
    page.remove()
  }
})
