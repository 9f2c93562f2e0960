import { describe, expect, it } from 'vitest'
import { Redactor } from './logger'

describe('Redactor', () => {
  it('replaces a key however a URL carries it: raw, percent-encoded, form-encoded, lowercase escapes', () => {
    const key = "k3y!with'(parens)~and/slash"
    const r = new Redactor()
    r.add(key)
    const form = new URLSearchParams({ api_key: key }).toString().slice('api_key='.length)
    const forms = [key, encodeURIComponent(key), form, form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())]
    for (const f of forms) {
      const line = `GET /api/v1/alpha/balance?address=0x1&api_key=${f} failed`
      expect(r.contains(line)).toBe(true)
      expect(r.redact(line)).toBe('GET /api/v1/alpha/balance?address=0x1&api_key=…lash failed')
    }
    expect(r.contains('no secret here')).toBe(false)
  })
})
