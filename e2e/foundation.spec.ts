import { expect, test } from './fixtures'

test('the page shows data that crossed the bridge from main', async ({ app, appHost }) => {
  await expect(app.getByTestId('app-info')).toContainText(`Chainscope`)
  await expect(app.getByTestId('app-info')).toContainText(`${appHost} host`)
})

test('the web host refuses requests without the secret or from a foreign origin', async ({
  app,
  webHost,
  playwright,
}) => {
  test.skip(webHost === null, 'web host only: Electron has no HTTP bridge')
  const origin = webHost!.origin
  // Without the secret cookie.
  const anonymous = await playwright.request.newContext()
  const noSecret = await anonymous.post(`${origin}/bridge/invoke`, { data: { name: 'app.info', input: {} } })
  expect(noSecret.status()).toBe(401)
  expect((await anonymous.get(`${origin}/`)).status()).toBe(401)
  await anonymous.dispose()
  // With the page's own session (its cookie and bridge key) but a foreign Origin.
  const cookies = await app.context().cookies(origin)
  const bridgeKey = String(await app.evaluate("localStorage.getItem('chainscope.webSession') ?? ''"))
  const withSecret = await playwright.request.newContext({
    extraHTTPHeaders: {
      cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      'x-chainscope-session': bridgeKey,
    },
  })
  const foreign = await withSecret.post(`${origin}/bridge/invoke`, {
    data: { name: 'app.info', input: {} },
    headers: { origin: 'http://evil.example' },
  })
  expect(foreign.status()).toBe(403)
  const same = await withSecret.post(`${origin}/bridge/invoke`, {
    data: { name: 'app.info', input: {} },
    headers: { origin },
  })
  expect(same.status()).toBe(200)
  expect(await same.json()).toMatchObject({ ok: true, value: { host: 'web' } })
  await withSecret.dispose()
})
