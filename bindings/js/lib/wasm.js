// Instantiates the wasm module once, synchronously, from the bytes embedded in
// ../pkg/mldsa_js_bg.wasm.js (base64): no fetch, no file system and no top-level await, so the
// package loads the same way in browsers, Node, Deno, workers and bundlers, and the noble-style
// API can stay synchronous. (A module this size compiles synchronously on the main thread in
// every engine: Chromium's limit for that is 8 MB.)
import { initSync } from '../pkg/mldsa_js.js';
import wasmBase64 from '../pkg/mldsa_js_bg.wasm.js';

function decodeBase64(s) {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The raw exports (memory included): for the package's own tests, not part of the API. */
export const instance = initSync({ module: decodeBase64(wasmBase64) });

export * from '../pkg/mldsa_js.js';
