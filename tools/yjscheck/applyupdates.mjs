// Applies updates made by the Go Yjs engine with stock yjs, for the Go
// tests of svc-content/internal/yjs.
//
// Input: JSON lines {updates: [<base64 v1 update>...], orders: [[index...]...]}.
// Output: one JSON line per input: {results: [{sv, state, content, pending}]},
// one result per order: a fresh Y.Doc that applied the updates in that
// order (sv, state: base64 of encodeStateVector / encodeStateAsUpdate;
// content as in yjshelpers.mjs).
import { createInterface } from 'node:readline'
import * as Y from 'yjs'
import { b64, content } from './yjshelpers.mjs'

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
for await (const line of lines) {
  if (line.trim() === '') continue
  const c = JSON.parse(line)
  const updates = c.updates.map(u => new Uint8Array(Buffer.from(u, 'base64')))
  const results = c.orders.map(order => {
    // A fixed guid: the doc is never shared, and a random one (lib0's
    // uuidv4) costs ~30 calls into crypto per doc, a tenth of this run.
    const d = new Y.Doc({ guid: 'applyupdates' })
    d.clientID = 0
    for (const i of order) Y.applyUpdate(d, updates[i])
    return {
      sv: b64(Y.encodeStateVector(d)),
      state: b64(Y.encodeStateAsUpdate(d)),
      content: content(d),
      pending: d.store.pendingStructs !== null || d.store.pendingDs !== null
    }
  })
  console.log(JSON.stringify({ results }))
}
