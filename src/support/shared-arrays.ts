/** Typed arrays over shared memory: other threads read or fill them in place, where a message would copy them. */
export const sharedInt32Array = (length: number): Int32Array => new Int32Array(new SharedArrayBuffer(length * Int32Array.BYTES_PER_ELEMENT))
export const sharedFloat64Array = (length: number): Float64Array => new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT))
