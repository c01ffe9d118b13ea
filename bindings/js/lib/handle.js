// The base of every key class: it owns one wasm-bindgen handle (a Rust object in wasm memory)
// and releases it on free() or `using`. Secret-key handles have `destroy()`, which drops the
// key (the core zeroises it) in a stack frame that is wiped afterwards (src/wipe.rs); the
// glue's FinalizationRegistry releases handles a program forgets to free.
const HANDLE = Symbol('handle');

export class KeyObject {
  constructor(handle, Expected, howToMake) {
    if (!(handle instanceof Expected)) throw new TypeError(howToMake);
    this[HANDLE] = handle;
  }
  _handle() {
    const h = this[HANDLE];
    if (!h) throw new TypeError('this key has been freed');
    return h;
  }
  /** Releases (and for secret keys zeroises) the key's wasm memory now. Idempotent. */
  free() {
    const h = this[HANDLE];
    this[HANDLE] = undefined;
    if (!h) return;
    if (typeof h.destroy === 'function') h.destroy(); // zeroise, in a wiped stack frame
    h.free();
  }
  [Symbol.dispose]() {
    this.free();
  }
}
