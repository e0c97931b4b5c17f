// `pnpm build`'s last step: the installed package's threads (every dist/**/*-thread-main.js) bundled into
// dist/threads/, which ownModuleThread loads instead of their modules one by one (src/threads/thread-bundle.ts).
import { join } from 'node:path'
import { bundleThreads, SHIPPED_FOLDER, threadMains } from '../src/threads/thread-bundle.ts'

const dist = join(import.meta.dirname, '..', 'dist')
const mains = threadMains(dist, 'js')
await bundleThreads(mains, join(dist, SHIPPED_FOLDER))
console.log(`bundled ${mains.length} threads into dist/${SHIPPED_FOLDER}/`)
