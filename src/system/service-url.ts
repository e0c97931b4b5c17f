import { InputError } from '../contract/input-error.ts'

/** A service's URL from the config; `what` names it in the error when it is not a URL. */
export function parseServiceUrl(what: string, url: string): URL {
  try {
    return new URL(url)
  } catch {
    throw new InputError(`${what} ${JSON.stringify(url)} is not a URL; expected e.g. http://127.0.0.1:8000/rag`)
  }
}
