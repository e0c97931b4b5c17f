#!/usr/bin/env node
// The rag-eval bin: `rag-eval --help` lists the commands (src/cli/dispatch.ts).
import { ragEval } from './dispatch.ts'

process.exitCode = await ragEval(process.argv.slice(2))
