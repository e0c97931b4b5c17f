"""A RAG service over HTTP for rag-vitest-eval, in Python 3.11 with the standard library only.

It implements the suite's HTTP contract (docs/your-pipeline.md in the rag-vitest-eval repository):

    POST /rag  {"id": "h-001", "question": "...", "userContext": {"role": "crew"} | null, "history"?: [{"role", "content"}]}
    200        {"ranked": [{"docId", "chunkId", "text", "score"}, ...], "context": [...], "answer": "... [1].",
                "stages": [{"name": "retrieve", "ranked": [...]}, {"name": "rerank", "ranked": [...]}]}

over the Markdown files under corpus/ (nested folders, front matter optional), in two stages: BM25 over
heading sections retrieves 10, a reranker keeps the RERANK_KEEP (default 5) whose best sentence covers most of
the question; then
a context of the best sections within CONTEXT_TOKENS, and an extractive answer (the question's best-covered
sentences, each citing its section as [n], n its place in the context; or a refusal). A document whose front matter has `roles: [...]` is retrieved only
when userContext.role is one of them. A follow-up question (one with a history) is searched and answered
after the user's earlier turns. GET / answers {"status": "ok"} (the suite's readiness check).

    PORT=8000 python3 service.py            # the port from the environment, default 8000
    python3 service.py --broken             # or BROKEN=1: ranks unrelated documents (to see the gate fail)
    RERANK_KEEP=1 python3 service.py        # a reranker that keeps one section: multi questions lose a document
    CITE_OFF_BY_ONE=1 python3 service.py    # the classic citation bug: each [n] points at the next section
    RAG_LOG=log.jsonl python3 service.py    # also appends what each stage kept, per question, to log.jsonl
    SHUFFLE_FOR=h-003,h-007 python3 service.py  # those questions' ranking shuffled at random on every request

One line per request is logged to stderr.
"""

import argparse
import json
import math
import os
import random
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
RANK_DEPTH = 10
REFUSAL = "I could not find the answer to this question in the provided material."
# Share of the question's term weight the best sentence must cover before the service answers.
MIN_COVERAGE = 0.3
STOPWORDS = set(
    "a an and are as at be by can do does for from how i if in is it its my of on or the their there this to "
    "was what when where which who why will with you your me we our much many".split()
)


# ---- corpus -----------------------------------------------------------------------------------------


def parse_front_matter(text):
    """(fields, body) for a document; fields is {} without front matter. A small subset of YAML:
    `key: value` and `key: [a, b]` lines, which is all this corpus uses."""
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---\n", 4)
    if end == -1:
        raise ValueError("front matter opened with --- but never closed")
    fields = {}
    for line in text[4:end].splitlines():
        if not line.strip():
            continue
        key, _, value = line.partition(":")
        value = value.strip()
        if value.startswith("[") and value.endswith("]"):
            fields[key.strip()] = [item.strip() for item in value[1:-1].split(",") if item.strip()]
        else:
            fields[key.strip()] = value
    return fields, text[end + 5 :]


def load_corpus(root):
    """Documents with id (front matter id, else the path relative to root without extension), roles
    (None: anyone), updated (an ISO date or "") and sections (the text under each heading, heading included)."""
    documents = []
    for path in sorted(root.rglob("*.md")):
        fields, body = parse_front_matter(path.read_text(encoding="utf-8"))
        doc_id = fields.get("id") or path.relative_to(root).with_suffix("").as_posix()
        roles = fields.get("roles")
        sections = [section.strip() for section in re.split(r"\n(?=#{1,6} )", body) if section.strip()]
        documents.append({"id": doc_id, "roles": roles, "updated": fields.get("updated", ""), "sections": sections})
    return documents


# ---- retrieval --------------------------------------------------------------------------------------


def terms(text):
    """Lower-case words without stop words, with a light suffix stripping so that forms of a word meet
    (dogs ~ dog, reported ~ report, refuelling ~ refuelled)."""
    words = re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower())
    return [stem(word) for word in words if word not in STOPWORDS]


def stem(word):
    """A crude suffix stripper, enough for this corpus: plural (-s, -ies), then -ing or -ed, then a final -e."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if len(word) - len(suffix) >= 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


class Bm25:
    """Okapi BM25 (k1 = 1.2, b = 0.75) over the sections of every document."""

    def __init__(self, documents):
        self.chunks = []
        for document in documents:
            for index, text in enumerate(document["sections"]):
                self.chunks.append(
                    {"docId": document["id"], "chunkId": f"{document['id']}#{index}", "text": text, "roles": document["roles"], "updated": document["updated"], "terms": terms(text)}
                )
        self.average_length = sum(len(chunk["terms"]) for chunk in self.chunks) / max(1, len(self.chunks))
        frequency = {}
        for chunk in self.chunks:
            for term in set(chunk["terms"]):
                frequency[term] = frequency.get(term, 0) + 1
        count = len(self.chunks)
        self.idf = {term: math.log(1 + (count - df + 0.5) / (df + 0.5)) for term, df in frequency.items()}
        # A term no section has weighs as much as the rarest one: a question about something the corpus never
        # mentions must not be answered from the one common word it shares with it.
        self.unknown_idf = max(self.idf.values(), default=1.0)

    def weight(self, term):
        return self.idf.get(term, self.unknown_idf)

    def score(self, query_terms, chunk):
        length = len(chunk["terms"])
        total = 0.0
        for term in set(query_terms):
            tf = chunk["terms"].count(term)
            if tf:
                total += self.idf[term] * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / self.average_length))
        return total

    def search(self, question, user_context, broken):
        """The visible chunks that match, best first; broken: the ones that match least (unrelated)."""
        role = user_context.get("role") if isinstance(user_context, dict) else None
        visible = [chunk for chunk in self.chunks if chunk["roles"] is None or role in chunk["roles"]]
        query = terms(question)
        scored = [(self.score(query, chunk), chunk) for chunk in visible]
        if broken:
            return [(0.0, chunk) for score, chunk in sorted(scored, key=lambda pair: pair[0])][:RANK_DEPTH]
        return sorted([pair for pair in scored if pair[0] > 0], key=lambda pair: -pair[0])[:RANK_DEPTH]


# ---- reranking --------------------------------------------------------------------------------------


def sentences_of(chunk):
    """The sentences of a section's body (its heading lines left out)."""
    body = "\n".join(line for line in chunk["text"].splitlines() if not line.startswith("#"))
    return [sentence.strip() for sentence in re.split(r"(?<=[.!?])\s+", body) if sentence.strip()]


def rerank(question, hits, index, keep):
    """The `keep` retrieved sections whose best sentence covers the most of the question's term weight (a
    section that answers in one place beats one that scatters the terms), BM25 breaking ties."""
    query = set(terms(question))
    weight = sum(index.weight(term) for term in query) or 1.0

    def best_sentence(chunk):
        return max((sum(index.weight(term) for term in set(terms(sentence)) & query) / weight for sentence in sentences_of(chunk)), default=0.0)

    scored = sorted(((best_sentence(chunk), score, chunk) for score, chunk in hits), key=lambda entry: (entry[0], entry[1]), reverse=True)
    return [(coverage, chunk) for coverage, _, chunk in scored[:keep]]


# ---- answering --------------------------------------------------------------------------------------


def approximate_tokens(text):
    return math.ceil(len(text.split()) * 4 / 3)


def pack_context(ranked, budget):
    context, used = [], 0
    for chunk in ranked:
        size = approximate_tokens(chunk["text"])
        if used + size > budget:
            break
        context.append(chunk)
        used += size
    return context


def extractive_answer(question, context, index, cite_offset=0):
    """The context's best-covered sentence, plus the next one when it adds a term and covers at least half
    as much (and MIN_COVERAGE); the refusal when no sentence covers MIN_COVERAGE of the question's term weight. Of two
    sentences that cover as much, the one from the more recently updated document wins (a newer policy
    governs an older one). Each sentence cites its section: [n], n its place in the context (plus cite_offset)."""
    query = set(terms(question))
    weight = sum(index.weight(term) for term in query)
    if weight == 0:
        return REFUSAL
    candidates = []
    for place, chunk in enumerate(context, start=1):
        for sentence in sentences_of(chunk):
            covered = set(terms(sentence)) & query
            candidates.append((sum(index.weight(term) for term in covered) / weight, chunk["updated"], covered, sentence, place))
    candidates.sort(key=lambda candidate: (candidate[0], candidate[1]), reverse=True)
    if not candidates or candidates[0][0] < MIN_COVERAGE:
        return REFUSAL

    def cited(candidate):
        sentence, place = candidate[3], candidate[4] + cite_offset
        # The marker goes before the sentence's closing punctuation: "... a short leash [1]."
        return f"{sentence[:-1]} [{place}]{sentence[-1]}" if sentence[-1] in ".!?" else f"{sentence} [{place}]"

    best = candidates[0]
    for other in candidates[1:]:
        if other[0] >= max(MIN_COVERAGE, best[0] / 2) and other[2] - best[2]:
            return f"{cited(best)} {cited(other)}"
    return cited(best)


# ---- a pipeline that is not deterministic ------------------------------------------------------------

# SHUFFLE_FOR=h-003,h-007: those questions' final ranking comes back in a random order on every request (unseeded),
# as a pipeline with a model in the loop answers differently each time; run with trials to see them flaky.
SHUFFLE_FOR = {question_id for question_id in os.environ.get("SHUFFLE_FOR", "").split(",") if question_id}


def shuffled_for(question_id, kept):
    """(kept, whether it was shuffled): a new random order for the questions of SHUFFLE_FOR, else as it was."""
    if question_id not in SHUFFLE_FOR:
        return kept, False
    return random.sample(kept, len(kept)), True


# ---- HTTP -------------------------------------------------------------------------------------------


def as_item(chunk, score=None):
    """A chunk as the contract's item: docId, chunkId, text and (in the ranking) score; tokens are left
    to the suite's tokenizer."""
    item = {"docId": chunk["docId"], "chunkId": chunk["chunkId"], "text": chunk["text"]}
    if score is not None:
        item["score"] = round(score, 4)
    return item


def make_handler(index, broken, context_tokens, rerank_keep, cite_offset, log_path):
    class Handler(BaseHTTPRequestHandler):
        def send_json(self, status, value):
            body = json.dumps(value).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if self.path == "/":
                self.send_json(200, {"status": "ok", "chunks": len(index.chunks)})
            else:
                self.send_json(404, {"error": f"no such path {self.path}; POST /rag"})

        def do_POST(self):
            started = time.perf_counter()
            if self.path != "/rag":
                self.send_json(404, {"error": f"no such path {self.path}; POST /rag"})
                return
            try:
                request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                question, question_id, user_context = request["question"], request["id"], request.get("userContext")
                if not isinstance(question, str) or not isinstance(question_id, str):
                    raise ValueError("id and question must be strings")
                # A follow-up question comes with the turns before it; it is searched after the user's earlier turns.
                history = request.get("history") or []
                if not isinstance(history, list) or not all(isinstance(turn, dict) for turn in history):
                    raise ValueError("history must be a list of {role, content} turns")
                earlier = [str(turn.get("content", "")) for turn in history if turn.get("role") == "user"]
            except (ValueError, KeyError, TypeError) as error:
                self.send_json(400, {"error": f"expected {{'id', 'question', 'userContext'}}: {error}"})
                return
            asked = " ".join(earlier + [question])
            hits = index.search(asked, user_context, broken)
            searched = time.perf_counter()
            # Broken, the pipeline is broken throughout: the reranker passes the unrelated sections on as they come.
            kept = hits[:rerank_keep] if broken else rerank(asked, hits, index, rerank_keep)
            kept, shuffled = shuffled_for(question_id, kept)
            retrieved = time.perf_counter()
            context = pack_context([chunk for _, chunk in kept], context_tokens)
            answer = extractive_answer(asked, context, index, cite_offset)
            ranked = [as_item(chunk, score) for score, chunk in kept]
            finished = time.perf_counter()
            self.send_json(
                200,
                {
                    "ranked": ranked,
                    "context": [as_item(chunk) for chunk in context],
                    "answer": answer,
                    "stages": [
                        {"name": "retrieve", "ranked": [as_item(chunk, score) for score, chunk in hits], "latencyMs": round((searched - started) * 1000, 3)},
                        {"name": "rerank", "ranked": ranked, "latencyMs": round((retrieved - searched) * 1000, 3)},
                    ],
                    "timingsMs": {"retrieve": round((retrieved - started) * 1000, 3), "generate": round((finished - retrieved) * 1000, 3)},
                },
            )
            if log_path:
                record = {
                    "id": question_id,
                    "retrieve": [chunk["docId"] for _, chunk in hits],
                    "rerank": [chunk["docId"] for _, chunk in kept],
                    "context": [chunk["docId"] for chunk in context],
                    **({"shuffled": True} if shuffled else {}),
                }
                with open(log_path, "a", encoding="utf-8") as log:
                    log.write(json.dumps(record) + "\n")
            role = user_context.get("role") if isinstance(user_context, dict) else None
            verdict = "refused" if answer == REFUSAL else "answered"
            print(f"POST /rag {question_id} role={role} -> {len(ranked)} ranked, {len(context)} in context, {verdict} ({(finished - started) * 1000:.1f} ms)", file=sys.stderr, flush=True)

        def log_message(self, format, *args):
            pass  # one line per request is printed by do_POST

    return Handler


def main():
    parser = argparse.ArgumentParser(description="Tidewater Ferries RAG service (rag-vitest-eval HTTP example)")
    parser.add_argument("--broken", action="store_true", help="rank unrelated documents (also BROKEN=1)")
    arguments = parser.parse_args()
    broken = arguments.broken or os.environ.get("BROKEN") == "1"
    port = int(os.environ.get("PORT", "8000"))
    context_tokens = int(os.environ.get("CONTEXT_TOKENS", "600"))
    rerank_keep = int(os.environ.get("RERANK_KEEP", "5"))
    cite_offset = 1 if os.environ.get("CITE_OFF_BY_ONE") == "1" else 0
    index = Bm25(load_corpus(CORPUS_DIR))
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(index, broken, context_tokens, rerank_keep, cite_offset, os.environ.get("RAG_LOG")))
    print(f"listening on http://127.0.0.1:{port}/rag ({len(index.chunks)} chunks{', BROKEN' if broken else ''})", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
