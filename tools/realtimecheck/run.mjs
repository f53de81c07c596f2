// Runs one scenario against svc-content's realtime endpoints with stock
// clients. Usage: node run.mjs <scenario> '<json config>'. Prints JSON
// lines: progress lines ({"step": ...}) the Go test may wait for, then the
// result {"ok": bool, "problems": [...], ...}. Exits when done.
import { scenarios as yws } from './yws.mjs'
import { scenarios as hp } from './hocuspocus.mjs'
import { scenarios as tiptap } from './tiptap.mjs'
import { scenarios as live } from './livestate.mjs'
import { scenarios as origin } from './origin.mjs'

const all = { ...yws, ...hp, ...tiptap, ...live, ...origin }
const [name, raw] = process.argv.slice(2)
const run = all[name]
if (!run) {
  console.log(JSON.stringify({ ok: false, problems: [`unknown scenario ${name}`] }))
  process.exit(2)
}
const cfg = JSON.parse(raw ?? '{}')
export const step = s => process.stdout.write(JSON.stringify({ step: s }) + '\n')
const timer = setTimeout(() => {
  console.log(JSON.stringify({ ok: false, problems: ['scenario timed out'] }))
  process.exit(1)
}, cfg.timeoutMs ?? 30000)
try {
  const out = await run(cfg, step)
  out.ok = out.problems.length === 0
  console.log(JSON.stringify(out))
} catch (err) {
  console.log(JSON.stringify({ ok: false, problems: [String(err && err.stack || err)] }))
}
clearTimeout(timer)
process.exit(0)
