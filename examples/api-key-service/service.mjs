// A RAG service behind an API key, for rag-vitest-eval's HTTP contract (docs/your-pipeline.md), in Node
// without dependencies: word-overlap retrieval over corpus/*.md and an extractive answer.
//
//   RAG_API_KEY=... PORT=8766 node service.mjs
//
// Every POST must carry `Authorization: Bearer $RAG_API_KEY`; any other is answered 401, quoting the
// headers it got (as careless services do). LEAKY=1 makes it careless everywhere, which the package's test
// uses to show that the secret reaches no file and no output of the suite: it logs each request's
// Authorization header, answers k-002 with a 503 and k-003 with a 422 whose bodies echo the request's
// headers, and puts the header into k-001's answer and chunk metadata, with the key base64-, URL- and hex-encoded.
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const key = process.env.RAG_API_KEY
if (!key) {
  console.error('RAG_API_KEY is not set')
  process.exit(1)
}
const leaky = process.env.LEAKY === '1'
/** @typedef {{ id: string, question: string }} RagRequest */
/** @param {string} text */
const words = (text) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
const corpus = readdirSync(new URL('./corpus/', import.meta.url))
  .filter((name) => name.endsWith('.md'))
  .map((name) => {
    const text = readFileSync(new URL(`./corpus/${name}`, import.meta.url), 'utf8').trim()
    return { docId: name.slice(0, -3), text, words: words(text) }
  })

/** The key as careless code writes it into URLs, logs and tokens. @param {string} value */
const encoded = (value) =>
  [
    `base64 ${Buffer.from(value).toString('base64')}`,
    `base64url ${Buffer.from(value).toString('base64url')}`,
    `url ${encodeURIComponent(value)}`,
    `hex ${Buffer.from(value).toString('hex')}`,
    `basic ${Buffer.from(`user:${value}`).toString('base64')}`,
  ].join(' ')

/**
 * @param {RagRequest} request
 * @param {import('node:http').IncomingHttpHeaders} headers
 */
function answer(request, headers) {
  const asked = words(request.question)
  const ranked = corpus
    .map((doc) => ({ doc, score: [...asked].filter((word) => doc.words.has(word)).length }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.doc.docId.localeCompare(b.doc.docId))
    .map(({ doc, score }) => ({ docId: doc.docId, text: doc.text, score }))
  const best = ranked[0]?.text.split('\n').at(-1) ?? 'I could not find the answer to this question in the provided material.'
  if (leaky && request.id === 'k-001')
    return {
      ranked: ranked.map((chunk) => ({ ...chunk, metadata: { headers } })),
      answer: `${best} (served for ${headers.authorization}; ${encoded(key)})`,
    }
  return { ranked, answer: best }
}

const server = createServer((req, res) => {
  let body = ''
  req.on('data', (/** @type {Buffer} */ chunk) => (body += chunk.toString()))
  req.on('end', () => {
    /** @param {number} status @param {unknown} value */
    const send = (status, value) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(typeof value === 'string' ? value : JSON.stringify(value))
    }
    if (req.method === 'GET') return send(200, { status: 'ok' })
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the suite's request (docs/your-pipeline.md)
    const request = /** @type {RagRequest} */ (JSON.parse(body))
    console.error(`POST ${request.id}${leaky ? ` authorization=${req.headers.authorization}` : ''}`)
    if (req.headers.authorization !== `Bearer ${key}`) return send(401, { error: 'invalid API key', received: req.headers })
    if (leaky && request.id === 'k-002') return send(503, `upstream timed out; the request was ${JSON.stringify(req.headers)}`)
    if (leaky && request.id === 'k-003') return send(422, { error: 'cannot answer', request: { headers: req.headers } })
    send(200, answer(request, req.headers))
  })
})
server.listen(Number(process.env.PORT ?? 8766), '127.0.0.1')
