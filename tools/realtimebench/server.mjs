// The anchor of bench/cmd/realtimebench: stock @hocuspocus/server
// 4.7.0, documents in memory, every token accepted, on loopback.
// Usage: node server.mjs <port>
import { Server } from '@hocuspocus/server'

const port = Number(process.argv[2] ?? 1234)
const server = new Server({
  port,
  address: '127.0.0.1',
  quiet: true,
  async onAuthenticate () {}
})
await server.listen()
console.log(JSON.stringify({ listening: port }))
