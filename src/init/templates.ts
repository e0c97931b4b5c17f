/**
 * What `rag-eval init` writes, paths relative to the project: the system stub works as is, so the first `vitest run`
 * passes, and says where a real pipeline plugs in.
 */
export interface ScaffoldFile {
  path: string
  content: string
}

/** The config, its corpus the given folder (a path relative to the project, as the config reads it). */
export const configTemplate = (
  corpus: string,
) => `// rag-eval.config.ts: what the evaluation reads (rag-eval CLI and the Vitest project alike).
// Every field is optional; the knobs a run varies also have an environment override (EVAL_CONTEXT_BUDGET, EVAL_TOLERANCE,
// ...: the package's docs/knobs.md).
import { defineConfig } from 'rag-vitest-eval/config'

export default defineConfig({
  // Your documents: a folder (nested folders, .md .mdx .markdown .txt), or { dir, include, exclude },
  // or null when your system owns its documents (a vector store) and returns their ids.
  corpus: '${corpus.replace(/[\\']/g, '\\$&')}',
  goldenSet: 'evals/golden-set.json',
  baseline: 'evals/baseline',
  reports: 'evals/reports',
  // The system under test: a module (default export: a RagSystem or a factory), 'builtin' (BM25),
  // or a service over HTTP in any language:
  //   system: { http: { url: 'http://127.0.0.1:8000/rag', command: 'python3 service.py' } },
  system: './evals/rag-system.ts',
  budgetTokens: 600,
  tolerance: 0.01,
})
`

export const SYSTEM_TEMPLATE = `// evals/rag-system.ts: the system under test. Replace the body of answer() with a call to your pipeline.
// This stub ranks the corpus's paragraphs by shared words and answers with the best one, so the first run passes.
import { defineRagSystem, type RetrievedChunk } from 'rag-vitest-eval'

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? [])

export default defineRagSystem(({ corpus }) => {
  // One chunk per paragraph of every document the suite loaded (corpus is null when config.corpus is null).
  const chunks = (corpus ?? []).flatMap((doc) =>
    doc.body.split(/\\n\\s*\\n/).map((text, index) => ({ docId: doc.id, chunkId: \`\${doc.id}#\${index}\`, text: text.trim() })).filter((c) => c.text && !c.text.startsWith('#')),
  )
  return {
    name: 'starter-keyword-system',
    async answer({ question, userContext }) {
      // userContext is the golden question's userContext (tenant, role...), null when it has none.
      void userContext
      const asked = words(question)
      const ranked: RetrievedChunk[] = chunks
        .map((chunk) => ({ ...chunk, score: [...words(chunk.text)].filter((w) => w.length > 3 && asked.has(w)).length, tokens: Math.ceil(chunk.text.length / 4) }))
        .filter((chunk) => chunk.score > 0)
        .sort((a, b) => b.score - a.score)
      const context = ranked.slice(0, 3)
      // No good match: say so (the suite counts this as a refusal, the right answer when the corpus has none).
      const answer = context[0] && context[0].score >= 2 ? context[0].text : 'I could not find this in the material.'
      return { ranked, context, answer }
    },
  }
})
`

/** The golden set of a project over the user's own documents: no question yet, `golden draft` writes the first. */
export const EMPTY_GOLDEN_SET_TEMPLATE = `{
  "$schema": "../node_modules/rag-vitest-eval/evals/golden-set.schema.json",
  "questions": []
}
`

export const GOLDEN_SET_TEMPLATE = `{
  "$schema": "../node_modules/rag-vitest-eval/evals/golden-set.schema.json",
  "questions": [
    {
      "id": "q-001",
      "type": "single",
      "question": "How long are support tickets kept after they are closed?",
      "answerDocIds": ["retention"],
      "goldAnswer": "Closed support tickets are kept for 18 months."
    },
    {
      "id": "q-002",
      "type": "multi",
      "question": "Which plan includes phone support, and how fast is the first reply on it?",
      "answerDocIds": ["plans", "support/response-times"],
      "goldAnswer": "The Scale plan includes phone support; its first reply comes within 2 hours."
    },
    {
      "id": "q-003",
      "type": "none",
      "question": "What is the office parking policy?",
      "answerDocIds": []
    }
  ]
}
`

export const CORPUS_TEMPLATES: readonly ScaffoldFile[] = [
  {
    path: 'evals/corpus/retention.md',
    content: `# Data retention

Closed support tickets are kept for 18 months after they are closed, then deleted with their attachments.

Invoices are kept for seven years, as the tax authority requires.
`,
  },
  {
    path: 'evals/corpus/plans.md',
    content: `# Plans

The Starter plan includes email support. The Scale plan includes email support and phone support from 8:00 to 20:00.
`,
  },
  {
    path: 'evals/corpus/support/response-times.md',
    content: `# Response times

On the Scale plan the first reply to a phone support request comes within 2 hours. On the Starter plan the first email reply comes within one business day.
`,
  },
]

export const VITEST_CONFIG_TEMPLATE = `import { defineConfig } from 'vitest/config'
import { ragEval } from 'rag-vitest-eval/vitest'

export default defineConfig({
  test: {
    // The evaluation: one case per golden question and per gated metric (reads rag-eval.config.ts).
    projects: [ragEval()],
  },
})
`

/** The two lines to add to a Vitest config that already exists (init never rewrites it). */
export const VITEST_CONFIG_LINES = `import { ragEval } from 'rag-vitest-eval/vitest'
  test: { projects: [ragEval() /* , your other projects */] }`
