// The package in browsers, workers and edge runtimes: the .wasm is fetched from beside this
// module, or given to init() (a compiled WebAssembly.Module, its bytes, a Response or a URL).

import { createApi } from './core.js';

const api = createApi({
  source: async () => new URL('./wasm/sdconv_bg.wasm', import.meta.url),
  fonts: async () => new URL('./wasm/sdconv_fonts.bin', import.meta.url),
});

export const { init, convert, formats, registerFont, SdconvError, _crashForTests } = api;
