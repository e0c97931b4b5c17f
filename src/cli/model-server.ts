import { parseArgs } from 'node:util'
import { InputError } from '../load/input-error.ts'
import { cacheMinTokens, loadPriceTable } from '../model/prices.ts'
import { startMessagesServer } from '../model/testing/messages-server.ts'
import { scriptedReply } from '../model/testing/scripted-responder.ts'
import { runCli } from './run-cli.ts'

const USAGE = `usage: pnpm model:server [--port 8787] [--latency-ms 0]
  Serves the local scripted Messages API on 127.0.0.1 until interrupted, to try the live mode without
  a key or network:  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ANTHROPIC_API_KEY=dummy EVAL_MODE=live pnpm eval
  Its outputs are scripted (src/model/testing/scripted-responder.ts), not a model's. It bills prompt
  caching as the API does (evals/model-prices.json: cacheMinTokens) and serves the Message Batches API
  (EVAL_BATCH=1; a batch ends at its second poll, every item answered).`

runCli('model:server', async () => {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '8787' }, 'latency-ms': { type: 'string', default: '0' }, help: { type: 'boolean' } },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  const port = Number(values.port)
  const latencyMs = Number(values['latency-ms'])
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InputError(`--port ${values.port}: expected a port number`)
  if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new InputError(`--latency-ms ${values['latency-ms']}: expected a number of milliseconds`)
  const prices = loadPriceTable('evals/model-prices.json')
  const server = await startMessagesServer(scriptedReply, { port, latencyMs, promptCache: (model) => cacheMinTokens(prices, model) })
  console.log(`scripted Messages API on ${server.url} (latency ${latencyMs} ms); Ctrl-C to stop`)
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await server.close()
  console.log(`served ${server.requests.length} requests, at most ${server.maxInFlight} at once`)
  return 0
})
