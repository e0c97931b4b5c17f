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
