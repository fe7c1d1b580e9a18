// Adds `__wbg_reset_state_async` to the glue wasm-bindgen generated (js/build.sh runs this):
// `__wbg_reset_state` (--experimental-reset-state-function) makes the fresh instance with the
// synchronous `new WebAssembly.Instance`, which Chromium refuses on a page's main thread for a
// module over 8 MB. The async twin does the same resets around `WebAssembly.instantiate`.
// The glue's shape is that of the pinned wasm-bindgen version: anything else fails the build.

import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2];
const glue = readFileSync(file, 'utf8');
const start = glue.indexOf('export function __wbg_reset_state () {');
const end = glue.indexOf('\n}\n', start);
const SYNC = 'new WebAssembly.Instance(wasmModule, __wbg_get_imports())';
if (start < 0 || end < 0 || !glue.slice(start, end).includes(SYNC)) {
  console.error(`${file}: no __wbg_reset_state of the expected shape (wasm-bindgen changed?)`);
  process.exit(1);
}
const body = glue.slice(start, end + 3);
const twin = body
  .replace('export function __wbg_reset_state () {', `export async function __wbg_reset_state_async () {
    const instance = await WebAssembly.instantiate(wasmModule, __wbg_get_imports());`)
  .replace(SYNC, 'instance');
writeFileSync(file, glue.slice(0, end + 3) + '\n' + twin + glue.slice(end + 3));
