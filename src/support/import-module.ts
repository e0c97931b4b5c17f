import { createJiti } from 'jiti'

// One loader for the user's TypeScript (config file, system module) without tsx in their project. No
// module cache: in watch mode every run reads the current files.
const jiti = createJiti(import.meta.url, { moduleCache: false, interopDefault: true })

/** The default export of a TypeScript or JavaScript module (the module itself when it has none). */
export async function importModule(file: string): Promise<unknown> {
  return jiti.import(file, { default: true })
}
