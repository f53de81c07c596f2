// Allowed domains: stock y-websocket and Hocuspocus providers whose socket
// sends an Origin header (as a browser does; the ws package's `origin`
// option), one allowed and one not.
import WebSocket from 'ws'
import { WebsocketProvider } from 'y-websocket'
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider'
import { waitFor, Y } from './lib.mjs'

// withOrigin is a WebSocket class that sends origin, for WebSocketPolyfill.
const withOrigin = origin => class extends WebSocket {
  constructor (url, protocols) { super(url, protocols, { origin }) }
}

async function yws (cfg, origin) {
  const p = new WebsocketProvider(cfg.wsBase + '/v2/crdt/sync', cfg.room, new Y.Doc(), {
    params: { token: cfg.token }, WebSocketPolyfill: withOrigin(origin), disableBc: true, maxBackoffTime: 300
  })
  const closes = []
  p.on('connection-close', e => { if (e) closes.push({ code: e.code, reason: e.reason }) })
  await waitFor(() => p.synced || closes.length > 0, 5000)
  const out = { synced: p.synced, close: closes[0] }
  p.destroy()
  return out
}

async function hocuspocus (cfg, origin) {
  const socket = new HocuspocusProviderWebsocket({ url: cfg.wsBase + '/v2/crdt/hocuspocus', WebSocketPolyfill: withOrigin(origin), maxDelay: 300 })
  const p = new HocuspocusProvider({ websocketProvider: socket, name: cfg.room, token: cfg.token })
  const events = []
  p.on('authenticated', ({ scope }) => events.push({ authenticated: scope }))
  p.on('authenticationFailed', ({ reason }) => events.push({ failed: reason }))
  p.attach()
  await waitFor(() => events.length > 0, 5000)
  p.destroy(); socket.destroy()
  return events[0]
}

export const scenarios = {
  async origin (cfg) {
    const problems = []
    const ok = await yws(cfg, cfg.allowed)
    if (!ok.synced) problems.push(`y-websocket from ${cfg.allowed} did not sync: ${JSON.stringify(ok.close)}`)
    const no = await yws(cfg, cfg.refused)
    if (no.synced || no.close?.code !== 4403 || !no.close.reason.includes('allowed domains')) {
      problems.push(`y-websocket from ${cfg.refused}: ${JSON.stringify(no)}, want close 4403 naming the allowed domains`)
    }
    const hpOK = await hocuspocus(cfg, cfg.allowed)
    if (!hpOK?.authenticated) problems.push(`hocuspocus from ${cfg.allowed}: ${JSON.stringify(hpOK)}`)
    const hpNo = await hocuspocus(cfg, cfg.refused)
    if (!hpNo?.failed?.includes('allowed domains')) problems.push(`hocuspocus from ${cfg.refused}: ${JSON.stringify(hpNo)}, want PermissionDenied naming the allowed domains`)
    return { problems, refusal: no.close?.reason }
  }
}
