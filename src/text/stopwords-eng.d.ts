// The stopword package's lists, imported one at a time (text-analyzer.ts, the scripted server's French check);
// @types/stopword types only the main module, which loads every language.
declare module 'stopword/src/stopwords_eng.js' {
  export const eng: string[]
}
declare module 'stopword/src/stopwords_fra.js' {
  export const fra: string[]
}
