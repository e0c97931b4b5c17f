import { dirname, join } from 'node:path'
import { cacheMinTokens, loadPriceTable } from '../model/prices.ts'
import { startMessagesServer } from '../model/testing/messages-server.ts'
import { scriptedReply } from '../model/testing/scripted-responder.ts'
import { recordingDir } from '../model/recording.ts'
import { defaultPaths, evaluate } from '../run/evaluate.ts'
import { file, folder, text } from './arg-kinds.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

const defaults = defaultPaths('.')

export const command = defineCommand({
  usage: `usage: rag-eval record-scripted [--recording golden-set] [--golden evals/golden-set.json] [--corpus corpus]
                               [--config evals/eval.config.json]`,
  description: `  Re-records fixtures/recordings/<recording>/ from the local scripted Messages API server: starts the
  server on 127.0.0.1 (scripted, plausible outputs: src/model/testing/scripted-responder.ts), runs the
  whole golden set with EVAL_MODE=record against it (a dummy key, no cache), and marks the recording
  scripted in its metadata. Run it when the golden set, the corpus, a prompt or a model name changes;
  commit the result. No network beyond 127.0.0.1.`,
  options: {
    recording: option(text, { default: 'golden-set' }),
    golden: option(file, { default: defaults.goldenSetFile }),
    corpus: option(folder, { default: defaults.corpusDir }),
    config: option(file, { default: (context) => context.config ?? defaults.configFile }),
  },
  run: async ({ values }) => {
    // Prompt caching billed as the API bills it (nothing below a model's minimum prefix), so the recorded usage is plausible.
    const prices = loadPriceTable(join(dirname(defaults.configFile), 'model-prices.json'))
    const server = await startMessagesServer(scriptedReply, { promptCache: (model) => cacheMinTokens(prices, model) })
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        EVAL_MODE: 'record',
        EVAL_RECORDING: values.recording,
        EVAL_CACHE: 'off',
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'scripted-local-server-dummy-key',
        MOCK: '',
      }
      const paths = { ...defaults, corpusDir: values.corpus, goldenSetFile: values.golden, configFile: values.config }
      const started = performance.now()
      const report = await evaluate(paths, { tier: 'full', env, baselineRoot: null })
      const dir = recordingDir(paths.recordingsDir ?? 'fixtures/recordings', values.recording)
      console.log(
        `recorded ${report.summary.questions} questions, ${server.requests.length} exchanges (scripted) into ${dir} in ${Math.round(performance.now() - started)} ms`,
      )
      console.log(`replay it with EVAL_MODE=replay pnpm eval (or MOCK=1 EVAL_MODE=live); commit ${dir}/`)
      return 0
    } finally {
      await server.close()
    }
  },
})
