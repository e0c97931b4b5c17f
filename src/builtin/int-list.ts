/** A growable Int32Array, for lists built item by item before they become an index's flat arrays. */
export class IntList {
  values = new Int32Array(1024)
  length = 0
  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[this.length++] = value
  }
}

/** Entries per block of an IntBlocks: 256 kB each. */
const BLOCK_BITS = 16
const BLOCK_SIZE = 1 << BLOCK_BITS
const BLOCK_MASK = BLOCK_SIZE - 1

/** An append-only int32 list in fixed-size blocks for an index's largest lists: it grows without a doubling list's copies and slack. */
export class IntBlocks {
  readonly #blocks: Int32Array[] = []
  #last = new Int32Array(0)
  length = 0
  push(value: number): void {
    const offset = this.length & BLOCK_MASK
    if (offset === 0) this.#blocks.push((this.#last = new Int32Array(BLOCK_SIZE)))
    this.#last[offset] = value
    this.length++
  }
  at(index: number): number {
    return this.#blocks[index >>> BLOCK_BITS]![index & BLOCK_MASK]!
  }
}
