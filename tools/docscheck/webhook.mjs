// Runs the Node snippet of docs/webhooks.md (the module path in argv[2],
// exporting verifyDelivery) on the deliveries given as JSON on stdin
// ([{secret, headers, body}]) and prints [{ok, error}] per delivery.
const snippet = await import(process.argv[2]);
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const out = cases.map((c) => {
  try {
    const payload = snippet.verifyDelivery(c.secret, c.headers, c.body);
    return { ok: true, payload };
  } catch (e) {
    return { ok: false, error: String(e && e.message ? e.message : e) };
  }
});
process.stdout.write(JSON.stringify(out));
