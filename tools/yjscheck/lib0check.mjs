// Checks the Go lib0 value layer (svc-content/internal/yjs/lib0) against
// lib0 and JavaScript itself.
//
// Input: JSON lines {any: <base64 writeAny bytes>, json: <JSON text>}.
// Output: JSON lines {any: <base64 of writeAny(readAny(any))>,
//   stringified: JSON.stringify(readAny(any)) or null when it throws,
//   string: String(value) for a number, else null,
//   json: JSON.stringify(JSON.parse(json)) or null when JSON.parse throws}
import { createInterface } from 'node:readline'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
for await (const line of lines) {
  if (line.trim() === '') continue
  const c = JSON.parse(line)
  const v = decoding.readAny(decoding.createDecoder(new Uint8Array(Buffer.from(c.any, 'base64'))))
  const e = encoding.createEncoder()
  encoding.writeAny(e, v)
  let stringified = null
  try { stringified = JSON.stringify(v) ?? null } catch { stringified = null }
  let json = null
  try { json = JSON.stringify(JSON.parse(c.json)) } catch { json = null }
  console.log(JSON.stringify({
    any: Buffer.from(encoding.toUint8Array(e)).toString('base64'),
    stringified,
    string: typeof v === 'number' ? String(v) : null,
    json
  }))
}
