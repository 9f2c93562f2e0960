/**
 * How a browser page proves to the web host that it is the page the launch token opened
 * (src/main/web/web-session.ts). Two parts, because cookies are not scoped by port: Chromium
 * sends a 127.0.0.1 cookie to every port of 127.0.0.1, so whatever listens on another port
 * gets it. The cookie (HttpOnly) alone opens only the static, public renderer; the bridge also
 * needs the session's bridge key, which lives in this origin's storage (scoped by port) and
 * travels only in a header, or in the event stream's query, to this same origin.
 */

/** The fragment the host redirects to after the exchange: `/#chainscope-session=<bridge key>`. */
export const SESSION_FRAGMENT = 'chainscope-session'
/** The header each bridge call carries the bridge key in. */
export const SESSION_HEADER = 'x-chainscope-session'
/** The event stream's query parameter for the bridge key (EventSource sends no headers). */
export const SESSION_QUERY = 'session'
