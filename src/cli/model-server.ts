import { cacheMinTokens, loadPriceTable } from '../model/prices.ts'
import { startMessagesServer } from '../model/testing/messages-server.ts'
import { scriptedReply } from '../model/testing/scripted-responder.ts'
import { decimal, integer } from './arg-kinds.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval model-server [--port 8787] [--latency-ms 0]`,
  description: `  Serves the local scripted Messages API on 127.0.0.1 until interrupted, to try the live mode without
  a key or network:  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ANTHROPIC_API_KEY=dummy EVAL_MODE=live pnpm eval
  Its outputs are scripted (src/model/testing/scripted-responder.ts), not a model's. It bills prompt
  caching as the API does (evals/model-prices.json: cacheMinTokens) and serves the Message Batches API
  (EVAL_BATCH=1; a batch ends at its second poll, every item answered).`,
  options: {
    port: option(integer({ min: 0, max: 65535 }), { default: '8787' }),
    'latency-ms': option(decimal({ min: 0 }), { default: '0' }),
  },
  run: async ({ values: { port, 'latency-ms': latencyMs } }) => {
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
  },
})
