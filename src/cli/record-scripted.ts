import { cacheMinTokens, loadPriceTable, PACKAGE_PRICES_FILE } from '../model/prices.ts'
import { startMessagesServer } from '../model-server/messages-server.ts'
import { scriptedReply } from '../model-server/scripted-responder.ts'
import { recordingDir } from '../model/recording.ts'
import { evaluate } from '../run/evaluate.ts'
import { file, folder, text } from './arg-kinds.ts'
import { option } from './args.ts'
import { projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval record-scripted [--config rag-eval.config.ts] [--recording golden-set] [--golden file] [--corpus folder]`,
  description: `  Re-records <recordingsDir>/<recording>/ (fixtures/recordings/ here) from the local scripted Messages API server: starts the
  server on 127.0.0.1 (scripted, plausible outputs: src/model-server/scripted-responder.ts), runs the
  whole golden set (the config's, or --golden over --corpus) with EVAL_MODE=record against it (a dummy key, no cache), and marks the recording
  scripted in its metadata. Run it when the golden set, the corpus, a prompt or a model name changes;
  commit the result. No network beyond 127.0.0.1.`,
  options: {
    recording: option(text, { default: 'golden-set' }),
    config: option(file),
    golden: option(file),
    corpus: option(folder),
  },
  run: async ({ values, context }) => {
    const project = await projectWith(values.config ?? context.config, context, values)
    // Prompt caching billed as the API bills it (nothing below a model's minimum prefix), so the recorded usage is plausible.
    const prices = loadPriceTable(project.prices ?? PACKAGE_PRICES_FILE)
    const server = await startMessagesServer(scriptedReply, { promptCache: (model) => cacheMinTokens(prices, model) })
    try {
      const env: NodeJS.ProcessEnv = {
        ...context.env,
        EVAL_MODE: 'record',
        EVAL_RECORDING: values.recording,
        EVAL_CACHE: 'off',
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'scripted-local-server-dummy-key',
        MOCK: '',
      }
      const started = performance.now()
      const report = await evaluate(project, { tier: 'full', env, baselineRoot: null })
      const dir = recordingDir(project.recordingsDir, values.recording)
      context.out(
        `recorded ${report.summary.questions} questions, ${server.requests.length} exchanges (scripted) ` +
          `into ${dir} in ${Math.round(performance.now() - started)} ms` +
          '\n',
      )
      context.out(`replay it with EVAL_MODE=replay npx vitest run --project eval (or MOCK=1 EVAL_MODE=live); commit ${dir}/\n`)
      return 0
    } finally {
      await server.close()
    }
  },
})
