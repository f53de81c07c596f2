// Reads the Yjs updates written by svc-content (internal/yjs) with the real
// yjs library and checks they read back the expected content.
//
// Input: JSON lines on stdin, one case each:
//   {"name": "...", "type": "text|map|array|xml", "contentKey": "content",
//    "updates": ["<base64>", ...], "expected": <content>}
// updates are the successive full updates of one document (version 1, 2,
// ...). The last one must load into a fresh Y.Doc to expected, and applying
// all of them in order to one Y.Doc (a peer that saw every version) must
// converge to expected too. A single update must also be exactly what Yjs
// itself encodes for the state it loaded to. text and xml compare
// toString(), map and array compare toJSON() deeply (Object.is for numbers).
//
// Output: one JSON line per case {name, ok, problems}. Exit code 1 when any
// case fails.
import { createInterface } from 'node:readline'
import { isDeepStrictEqual } from 'node:util'
import * as Y from 'yjs'

const read = (doc, type, key) => {
  switch (type) {
    case 'text': return doc.getText(key).toString()
    case 'map': return doc.getMap(key).toJSON()
    case 'array': return doc.getArray(key).toJSON()
    case 'xml': return doc.getXmlFragment(key).toString()
    default: throw new Error(`unknown type ${type}`)
  }
}

const pending = doc => doc.store.pendingStructs !== null || doc.store.pendingDs !== null

const checkCase = c => {
  const problems = []
  const updates = c.updates.map(u => new Uint8Array(Buffer.from(u, 'base64')))
  const last = updates[updates.length - 1]

  const fresh = new Y.Doc()
  Y.applyUpdate(fresh, last)
  const got = read(fresh, c.type, c.contentKey)
  if (pending(fresh)) problems.push('last update left pending structs or deletes')
  if (!isDeepStrictEqual(got, c.expected)) problems.push({ fresh: got })

  const peer = new Y.Doc()
  for (const u of updates) Y.applyUpdate(peer, u)
  const converged = read(peer, c.type, c.contentKey)
  if (pending(peer)) problems.push('sequence of updates left pending structs or deletes')
  if (!isDeepStrictEqual(converged, c.expected)) problems.push({ peer: converged })

  if (updates.length === 1) {
    const again = Y.encodeStateAsUpdate(fresh)
    if (Buffer.compare(Buffer.from(again), Buffer.from(last)) !== 0) {
      problems.push({ reencoded: Buffer.from(again).toString('base64') })
    }
  }
  return problems
}

let failed = 0
let passed = 0
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
for await (const line of lines) {
  if (line.trim() === '') continue
  let c = { name: '?' }
  let problems
  try {
    c = JSON.parse(line)
    problems = checkCase(c)
  } catch (err) {
    problems = [String(err && err.stack ? err.stack : err)]
  }
  const ok = problems.length === 0
  if (ok) passed++; else failed++
  console.log(JSON.stringify({ name: c.name, ok, problems, expected: ok ? undefined : c.expected }))
}
console.log(JSON.stringify({ summary: { passed, failed } }))
process.exit(failed > 0 ? 1 : 0)
