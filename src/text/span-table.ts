/**
 * Values keyed by text.slice(start, end), found without the slice: open addressing over the caller's hashes, keys
 * compared char by char. A large text repeats a few thousand words millions of times, and a string each is most of
 * a scan's cost. Each distinct key is held for the life of the process.
 */
export class SpanTable<V> {
  #mask = 1023
  #slots = new Int32Array(1024)
  readonly #hashes: number[] = []
  readonly #keys: string[] = []
  readonly #values: V[] = []
  /** Computes the value of a key met for the first time. */
  readonly #make: (key: string) => V

  constructor(make: (key: string) => V) {
    this.#make = make
  }

  /** The value of text.slice(start, end), whose hash is `hash`: looked up, or made once and kept. */
  get(text: string, start: number, end: number, hash: number): V {
    const length = end - start
    let slot = hash & this.#mask
    for (let entry = this.#slots[slot]! - 1; entry >= 0; entry = this.#slots[slot]! - 1) {
      if (this.#hashes[entry] === hash && this.#keys[entry]!.length === length && sameChars(this.#keys[entry]!, text, start))
        return this.#values[entry]!
      slot = (slot + 1) & this.#mask
    }
    const key = text.slice(start, end)
    const value = this.#make(key)
    this.#slots[slot] = this.#keys.push(key)
    this.#hashes.push(hash)
    this.#values.push(value)
    if (this.#keys.length * 2 > this.#mask) this.#grow()
    return value
  }

  #grow(): void {
    this.#mask = this.#mask * 2 + 1
    this.#slots = new Int32Array(this.#mask + 1)
    for (let entry = 0; entry < this.#keys.length; entry++) {
      let slot = this.#hashes[entry]! & this.#mask
      while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask
      this.#slots[slot] = entry + 1
    }
  }
}

/** Whether `text` holds `key` from `start` (the caller has checked that the length fits). */
function sameChars(key: string, text: string, start: number): boolean {
  for (let k = 0; k < key.length; k++) if (key.charCodeAt(k) !== text.charCodeAt(start + k)) return false
  return true
}
