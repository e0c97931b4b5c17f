// The stopword package's English list, imported on its own (text-analyzer.ts); @types/stopword types only the main module.
declare module 'stopword/src/stopwords_eng.js' {
  export const eng: string[]
}
