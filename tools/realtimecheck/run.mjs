// Runs one scenario against svc-content's realtime endpoints with stock
// clients. Usage: node run.mjs <scenario> '<json config>'. Prints JSON
// lines: progress lines ({"step": ...}) the Go test may wait for, then the
// result {"ok": bool, "problems": [...], ...}. Exits when done.

// The scenario modules, cheapest first, imported until one has the
// scenario: tiptap.mjs loads jsdom and TipTap, four times the start-up CPU
// of the others (0.9 s against 0.2 s), and every Go test that drives a
// scenario starts this script anew.
const modules = ['./yws.mjs', './hocuspocus.mjs', './livestate.mjs', './origin.mjs', './tiptap.mjs']
const [name, raw] = process.argv.slice(2)
let run
for (const m of modules) {
  const { scenarios } = await import(m)
  if (Object.hasOwn(scenarios, name)) {
    run = scenarios[name]
    break
  }
}
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
