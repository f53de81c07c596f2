// Helpers shared by the scenarios: stock providers under node (the ws
// package stands in for the browser's WebSocket) and waiting for a
// condition with a deadline.
import WebSocket from 'ws'
import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider'

export { Y }

// ywsProvider connects a Y.Doc to wsBase + /v2/crdt/sync/{room}?token=...,
// exactly as an application would; closes (code, reason) are recorded.
export function ywsProvider (wsBase, room, token, doc = new Y.Doc()) {
  const provider = new WebsocketProvider(wsBase + '/v2/crdt/sync', room, doc, {
    params: { token },
    WebSocketPolyfill: WebSocket,
    disableBc: true,
    maxBackoffTime: 300
  })
  provider.closes = []
  provider.on('connection-close', event => {
    if (event) provider.closes.push({ code: event.code, reason: event.reason })
  })
  return provider
}

// hpSocket is one Hocuspocus socket that several providers can share.
export function hpSocket (wsBase) {
  return new HocuspocusProviderWebsocket({
    url: wsBase + '/v2/crdt/hocuspocus',
    WebSocketPolyfill: WebSocket,
    maxDelay: 300
  })
}

// hpProvider attaches a document to a Hocuspocus socket; authentication
// results are recorded.
export function hpProvider (socket, name, token, doc = new Y.Doc()) {
  const provider = new HocuspocusProvider({ websocketProvider: socket, name, token, document: doc })
  provider.events = []
  provider.on('authenticated', ({ scope }) => provider.events.push({ authenticated: scope }))
  provider.on('authenticationFailed', ({ reason }) => provider.events.push({ failed: reason }))
  provider.attach()
  return provider
}

export const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// waitFor polls cond until it is truthy or ms pass; false on timeout.
export async function waitFor (cond, ms = 10000, step = 20) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await cond()) return true
    await sleep(step)
  }
  return Boolean(await cond())
}

export function synced (provider) {
  return waitFor(() => provider.synced)
}

// nextLine resolves with the next line the Go test writes to stdin.
import { createInterface } from 'node:readline'
const lines = []
const waiting = []
createInterface({ input: process.stdin }).on('line', line => {
  const w = waiting.shift()
  if (w) w(line)
  else lines.push(line)
})
export function nextLine () {
  if (lines.length > 0) return Promise.resolve(lines.shift())
  return new Promise(resolve => waiting.push(resolve))
}
