// The package's API over the WebAssembly engine, the same for every platform: node.js and
// index.js only say where the .wasm comes from and what a string input means.
//
// The engine is built with panic=abort (the only way std for wasm32 is built here), so a bug
// that panics traps the instance: its memory may be left half-updated (an allocator, a lock).
// Such an instance is never called again: the failed call rejects with an SdconvError of kind
// "internal_error" and the next call gets a fresh instance of the already compiled module.

import * as glue from './wasm/sdconv.js';

/**
 * Any failure of sdconv. `kind` says what went wrong:
 * - `invalid_input`: the input is not a readable document of its format;
 * - `invalid_option`: an option is wrong;
 * - `limit_exceeded`: the input passes one of the engine's limits (a zip bomb, …);
 * - `unsupported_format`: a format sdconv does not know, or cannot convert in this direction;
 * - `conversion_failed`: the engine could not finish for another reason;
 * - `internal_error`: a bug in sdconv stopped the conversion (the module recovers by itself).
 */
export class SdconvError extends Error {
  constructor(kind, message, options) {
    super(message, options);
    this.name = 'SdconvError';
    this.kind = kind;
  }
}

const OPTION_NAMES = new Set([
  'from', 'styleMapping', 'magic', 'routines', 'maxSize', 'images', 'language', 'settings',
  'wordSettings', 'template', 'trackChanges', 'comments', 'paper', 'tables', 'headersFooters',
  'pageBreaks', 'name', 'mammoth',
]);

/**
 * Builds the API for one platform.
 * @param {{ source: () => Promise<WebAssembly.Module | BufferSource | Response | URL | string>,
 *           load?: (input: string) => Promise<{ bytes: Uint8Array, name: string,
 *                                                 readImage?: (ref: string) => Uint8Array | undefined }> }} platform
 */
export function createApi(platform) {
  /** The compiled module, shared by every instance. */
  let compiled = null;
  /** The engine of the current instance; null before init and after a trap. */
  let engine = null;
  let starting = null;
  let instantiated = false;
  /** Fonts registered by the caller: given again to an instance made after a trap. */
  const fonts = [];
  /** The bundled fonts file once loaded (on the first export that needs it), and from where. */
  let fontBundle = null;
  let fontSource = null;
  /** The last panic message the engine reported before trapping. */
  let panicMessage = null;

  /** Compiles a fetched `.wasm`, while it downloads where the server says `application/wasm`. */
  async function compileResponse(response) {
    if (!response.ok) {
      throw new SdconvError('conversion_failed', `cannot load ${response.url}: ${response.status}`);
    }
    const wasmType = response.headers.get('content-type')?.startsWith('application/wasm');
    if (wasmType && typeof WebAssembly.compileStreaming === 'function') {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  }

  async function compile(source) {
    if (source instanceof WebAssembly.Module) return source;
    if (typeof Response !== 'undefined' && source instanceof Response) return compileResponse(source);
    if (source instanceof URL || typeof source === 'string') return compileResponse(await fetch(source));
    if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
    throw new TypeError('init() takes a WebAssembly.Module, the .wasm bytes, a Response or a URL');
  }

  /**
   * An instance of the compiled module. The glue holds one at a time: the first comes from its
   * init, later ones, after a trap, from its reset function (wasm-bindgen's
   * --experimental-reset-state-function, made async by glue-reset.mjs), which clears the glue's
   * tables too. Both asynchronous: Chromium refuses a synchronous instantiation of a module
   * this large on a page's main thread.
   */
  async function instantiate() {
    if (!instantiated) {
      await glue.default({ module_or_path: compiled });
      instantiated = true;
    } else {
      await glue.__wbg_reset_state_async();
    }
    engine = glue;
    engine.setPanicHandler((message) => {
      panicMessage = message;
    });
    if (fontBundle) engine.provideFonts(fontBundle);
    for (const font of fonts) engine.registerFont(font);
  }

  /** Bytes from what `init` or the platform gives: bytes, a Response or a URL. */
  async function bytesOf(source) {
    if (source instanceof ArrayBuffer) return new Uint8Array(source);
    if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    const response = typeof Response !== 'undefined' && source instanceof Response ? source : await fetch(source);
    if (!response.ok) {
      throw new SdconvError('conversion_failed', `cannot load ${response.url}: ${response.status}`);
    }
    return new Uint8Array(await response.arrayBuffer());
  }

  /**
   * The bundled fonts (wasm/sdconv_fonts.bin) are a file of their own, loaded on the first
   * export that needs them (Word, PDF, sd.xml, parsX): a page that only makes HTML never
   * downloads them.
   */
  async function ensureFonts(to) {
    if (!engine.fontsNeeded(to)) return;
    fontBundle ??= await bytesOf(fontSource ?? (await platform.fonts()));
    await ready();
    call((e) => e.provideFonts(fontBundle));
  }

  /**
   * Loads the engine. Optional: `convert` calls it with the platform's default. Pass a compiled
   * `WebAssembly.Module` (workers, edge runtimes), the `.wasm` bytes, a `Response` or a URL;
   * `options.fonts` says where the fonts file comes from in the same ways (default: beside the
   * module). Once loaded, later calls change nothing.
   */
  async function init(moduleOrBytes, options = {}) {
    if (options.fonts !== undefined) fontSource ??= options.fonts;
    await ready(moduleOrBytes);
  }

  /** The engine, loaded on first use and a fresh instance after a trap. One start at a time. */
  async function ready(source) {
    if (engine) return engine;
    starting ??= (async () => {
      compiled ??= await compile(source ?? (await platform.source()));
      await instantiate();
    })();
    try {
      await starting;
    } finally {
      starting = null;
    }
    return engine;
  }

  /** Calls the engine, turning its `{kind, message}` and traps into SdconvErrors. */
  function call(f) {
    panicMessage = null;
    try {
      return f(engine);
    } catch (e) {
      if (e instanceof SdconvError) throw e;
      if (e instanceof WebAssembly.RuntimeError || e instanceof RangeError) {
        // A trap (a panic, an out-of-memory): this instance is done.
        engine = null;
        const why = panicMessage ?? e.message;
        throw new SdconvError('internal_error', `sdconv stopped: ${why}`, { cause: e });
      }
      if (e && typeof e === 'object' && typeof e.kind === 'string') {
        throw new SdconvError(e.kind, e.message);
      }
      throw e;
    }
  }

  async function inputBytes(input, options) {
    if (typeof input === 'string') {
      if (!platform.load) {
        throw new TypeError('a string input (a path) is for Node; pass bytes, a Blob or a File');
      }
      return platform.load(input);
    }
    if (input instanceof Uint8Array) return { bytes: input, name: options.name };
    if (input instanceof ArrayBuffer) return { bytes: new Uint8Array(input), name: options.name };
    if (ArrayBuffer.isView(input)) {
      return {
        bytes: new Uint8Array(input.buffer, input.byteOffset, input.byteLength),
        name: options.name,
      };
    }
    if (typeof Blob !== 'undefined' && input instanceof Blob) {
      // A File's name tells the format as a path's does.
      return { bytes: new Uint8Array(await input.arrayBuffer()), name: options.name ?? input.name };
    }
    throw new TypeError(
      'input must be a Uint8Array, an ArrayBuffer, a Blob or File, or (in Node) a path',
    );
  }

  /**
   * Converts `input` to format `to`. See index.d.ts for the options and the result.
   */
  async function convert(input, to = 'markdown', options = {}) {
    if (typeof to !== 'string') throw new TypeError('to must be a format name');
    if (options === null || typeof options !== 'object') {
      throw new TypeError('options must be an object');
    }
    for (const key of Object.keys(options)) {
      if (!OPTION_NAMES.has(key)) {
        throw new SdconvError(
          'invalid_option',
          `unknown option ${JSON.stringify(key)}; known: ${[...OPTION_NAMES].sort().join(', ')}`,
        );
      }
    }
    const { images, name: _name, ...rest } = options;
    const callback = typeof images === 'function' ? images : null;
    const json = JSON.stringify({ ...rest, images: callback ? 'files' : images });
    const { bytes, name, readImage } = await inputBytes(input, options);
    await ready();
    await ensureFonts(to);
    const raw = call((e) => e.convert(bytes, name, to, json, readImage));
    const result = {
      format: raw.format,
      images: {},
      files: {},
      warnings: raw.warnings,
      title: raw.title ?? null,
    };
    const types = {};
    for (const [file, data, type] of raw.files) {
      result.files[file] = data;
      types[file] = type;
      if (file.startsWith('images/')) result.images[file] = data;
    }
    if ('text' in raw) result.text = raw.text;
    else result.data = raw.data;
    if (callback && result.text !== undefined) {
      const names = [];
      const srcs = [];
      for (const [file, data] of Object.entries(result.images)) {
        const src = await callback({ name: file, data, contentType: types[file] });
        if (src === undefined || src === null) continue;
        if (typeof src !== 'string') {
          throw new SdconvError('invalid_option', `the images callback returned ${typeof src}, not a string`);
        }
        names.push(file);
        srcs.push(src);
        delete result.images[file];
        delete result.files[file];
      }
      if (names.length) {
        await ready();
        result.text = call((e) => e.rewriteImages(result.text, result.format, names, srcs));
      }
    }
    return result;
  }

  /** The formats sdconv knows: `[{ name, read, write }]`. */
  async function formats() {
    await ready();
    return call((e) => e.formats());
  }

  /** Adds a font (TrueType/OpenType bytes) for PDF output, kept for this module's life. */
  async function registerFont(bytes) {
    await ready();
    const copy = new Uint8Array(bytes);
    const faces = call((e) => e.registerFont(copy));
    fonts.push(copy);
    return faces;
  }

  /** Traps the instance on purpose (a panic), for the tests of the recovery; not public. */
  async function _crashForTests() {
    await ready();
    call((e) => e.__panicForTests());
  }

  return { init, convert, formats, registerFont, SdconvError, _crashForTests };
}
