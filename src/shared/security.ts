/**
 * Content-Security-Policy of the renderer. No remote scripts anywhere. In Electron all network
 * traffic goes through main, so `connect-src` is only the app itself; the web host also needs
 * its own origin for the HTTP bridge. Remote token icons are images the user must allow.
 */
const common = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  "img-src 'self' data: https:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
]

export const CONTENT_SECURITY_POLICY = {
  electron: [...common, "connect-src 'none'"].join('; '),
  web: [...common, "connect-src 'self'"].join('; '),
} as const
