import { cacheMinTokens, loadPriceTable, PACKAGE_PRICES_FILE } from '../model/prices.ts'
import { parseFaultSpec, withFaults } from '../model-server/fault-injection.ts'
import { startMessagesServer } from '../model-server/messages-server.ts'
import { scriptedResponder } from '../model-server/scripted-responder.ts'
import { BAD_DRAFT_KINDS, type BadDraftKind } from '../model-server/scripted-drafter.ts'
import { decimal, integer, kind } from './arg-kinds.ts'
import { InputError } from '../contract/input-error.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

const faultSpec = kind('a fault spec', parseFaultSpec)

const badDrafts = kind(`a comma-separated list of ${BAD_DRAFT_KINDS.join(', ')}`, (text) => {
  const kinds = text.split(',').map((k) => k.trim())
  const unknown = kinds.find((k) => !(BAD_DRAFT_KINDS as readonly string[]).includes(k))
  if (unknown !== undefined) throw new InputError(`unknown kind "${unknown}"; expected ${BAD_DRAFT_KINDS.join(', ')}`)
  return kinds as BadDraftKind[]
})

export const command = defineCommand({
  usage: `usage: rag-eval model-server [--port 8787] [--latency-ms 0] [--fault kind[:every=N][:after=N][,kind...]]
                          [--bad-drafts unsupported,leaked,duplicate,not-multi,answerable-none]`,
  description: `  Serves the local scripted Messages API on 127.0.0.1 until interrupted, to try the live mode without
  a key or network:  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ANTHROPIC_API_KEY=dummy EVAL_MODE=live npx vitest run --project eval
  Its outputs are scripted (src/model-server/scripted-responder.ts), not a model's. It bills prompt
  caching as the API does (evals/model-prices.json: cacheMinTokens) and serves the Message Batches API
  (EVAL_BATCH=1; a batch ends at its second poll, every item answered).
  --fault injects failures to rehearse against (429 with retry-after, 529, 500, hang, drop, malformed-tool,
  text-instead-of-tool), e.g. --fault 429:every=3 or --fault 529:after=10,drop:every=7
  (src/model-server/fault-injection.ts).
  It drafts golden-set questions for \`rag-eval golden draft\` from the material it is sent; --bad-drafts makes
  some drafts bad on purpose, of the kinds named (an answer the passages do not support, a question that holds
  its answer, a duplicate, a multi question one document answers, an answerable none question), to rehearse
  \`rag-eval golden verify\` (src/model-server/scripted-drafter.ts).`,
  options: {
    port: option(integer({ min: 0, max: 65535 }), { default: '8787' }),
    'latency-ms': option(decimal({ min: 0 }), { default: '0' }),
    fault: option(faultSpec),
    'bad-drafts': option(badDrafts),
  },
  run: async ({ values: { port, 'latency-ms': latencyMs, fault, 'bad-drafts': bad }, context }) => {
    const prices = loadPriceTable(PACKAGE_PRICES_FILE)
    const server = await startMessagesServer(withFaults(scriptedResponder({ badDrafts: bad ?? [] }), fault ?? []), {
      port,
      latencyMs,
      promptCache: (model) => cacheMinTokens(prices, model),
    })
    context.out(
      `scripted Messages API on ${server.url} (latency ${latencyMs} ` +
        `ms${fault ? `, faults: ${fault.map((f) => `${f.kind} every ${f.every} after ${f.after}`).join(', ')}` : ''}` +
        `${bad ? `, bad drafts: ${bad.join(', ')}` : ''}); Ctrl-C to stop` +
        '\n',
    )
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    await server.close()
    context.out(`served ${server.requests.length} requests, at most ${server.maxInFlight} at once\n`)
    return 0
  },
})
