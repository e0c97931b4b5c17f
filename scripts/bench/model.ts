import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMessagesServer } from '../../src/model-server/messages-server.ts'
import { scriptedReply } from '../../src/model-server/scripted-responder.ts'
import { evaluate } from '../../src/run/evaluate.ts'
import { positiveInteger, positiveNumber } from '../../src/cli/arg-kinds.ts'
import { option } from '../../src/cli/args.ts'
import { projectWith } from '../../src/cli/cli-project.ts'
import { defineCommand } from '../../src/cli/command.ts'
import { runBench } from './run-bench.ts'

/** The first n golden questions; when the set is smaller, variants of it (distinct text, so no call is shared). */
function benchQuestions(file: string, n: number): unknown {
  const set = JSON.parse(readFileSync(file, 'utf8')) as { questions: { id: string; question: string }[] }
  const questions = Array.from({ length: n }, (_, i) => {
    const q = set.questions[i % set.questions.length]!
    const round = Math.floor(i / set.questions.length)
    return round === 0 ? q : { ...q, id: `${q.id}-v${round}`, question: `${q.question} (variant ${round})` }
  })
  return { questions }
}

const command = defineCommand({
  usage: `usage: pnpm bench:model [--questions 100] [--concurrency 8] [--latency-ms 300] [--max-ratio 1.25]`,
  description: `  Throughput of the model tier: the local Messages API server answers every request after a fixed
  latency; the whole live pipeline (Claude answerer, then the judges, through the one model client;
  no cache) runs on that many golden questions at that concurrency. Prints the wall time against the
  ideal (API calls x latency / concurrency) and exits 1 when the ratio exceeds --max-ratio.`,
  options: {
    questions: option(positiveInteger, { default: '100' }),
    concurrency: option(positiveInteger, { default: '8' }),
    'latency-ms': option(positiveNumber, { default: '300' }),
    'max-ratio': option(positiveNumber, { default: '1.25' }),
  },
  run: async ({ values, context }) => {
    const { questions: n, concurrency, 'latency-ms': latencyMs, 'max-ratio': maxRatio } = values
    const project = await projectWith(context.config, context)
    const dir = mkdtempSync(join(tmpdir(), 'bench-model-'))
    const server = await startMessagesServer(scriptedReply, { latencyMs })
    try {
      const goldenSetFile = join(dir, 'golden-set.json')
      writeFileSync(goldenSetFile, JSON.stringify(benchQuestions(project.goldenSet, n)))
      const env: NodeJS.ProcessEnv = {
        EVAL_MODE: 'live',
        EVAL_CACHE: 'off',
        EVAL_CONCURRENCY: String(concurrency),
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'bench-local-server-dummy-key',
      }
      const started = performance.now()
      const report = await evaluate(
        { ...project, goldenSet: goldenSetFile, cacheDir: join(dir, 'cache') },
        { tier: 'full', env, baselineRoot: null },
      )
      const wallMs = performance.now() - started
      const calls = report.run.usage.calls
      const idealMs = (calls * latencyMs) / concurrency
      const ratio = wallMs / idealMs
      const { generate, judge } = report.run.latencyMs
      console.log(`model tier throughput: ${n} questions, concurrency ${concurrency}, server latency ${latencyMs} ms`)
      console.log(
        `  API calls         ${calls} (generator ${report.run.usage.byRole.generator.calls}, ` +
          `judge ${report.run.usage.byRole.judge.calls}), retries ${report.run.usage.retries}`,
      )
      console.log(`  max in flight     ${server.maxInFlight} (limit ${concurrency})`)
      console.log(`  ideal             ${(idealMs / 1000).toFixed(2)} s (calls x latency / concurrency)`)
      console.log(
        `  wall time         ${(wallMs / 1000).toFixed(2)} s (whole evaluation: load, retrieve, generate, judge, score)`,
      )
      console.log(`  ratio             ${ratio.toFixed(3)} (target <= ${maxRatio})`)
      console.log(
        `  call latency      generate p50 ${generate?.p50.toFixed(0)} ms p95 ${generate?.p95.toFixed(0)} ` +
          `ms, judge p50 ${judge?.p50.toFixed(0)} ms p95 ${judge?.p95.toFixed(0)} ms`,
      )
      console.log(
        `  throughput        ${((calls / wallMs) * 1000).toFixed(1)} calls/s (ideal ${((concurrency / latencyMs) * 1000).toFixed(1)})`,
      )
      if (server.maxInFlight > concurrency) {
        console.log(`FAIL: the server saw ${server.maxInFlight} requests in flight, above the limit ${concurrency}`)
        return 1
      }
      if (ratio > maxRatio) {
        console.log(`FAIL: ${ratio.toFixed(3)}x the ideal, above ${maxRatio}x`)
        return 1
      }
      console.log(`PASS: within ${maxRatio}x of the ideal`)
      return 0
    } finally {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
})

await runBench('model', command)
