// The package in Node: the .wasm is read from disk beside this file, and a string input is a
// path (its extension tells the format; a Markdown file's pictures are read from beside it).

import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { createApi } from './core.js';

/**
 * The picture a Markdown file at `path` names as `reference`: plain relative paths only (no
 * `..`, nothing absolute, no URL), as the command line reads them.
 */
function imageReader(path) {
  const base = dirname(path);
  return (reference) => {
    if (isAbsolute(reference) || /^[a-z][a-z0-9+.-]*:/i.test(reference)) return undefined;
    try {
      const rel = normalize(decodeURIComponent(reference));
      if (rel.split(sep).includes('..') || isAbsolute(rel)) return undefined;
      return new Uint8Array(readFileSync(join(base, rel)));
    } catch {
      return undefined;
    }
  };
}

const api = createApi({
  source: () => readFile(new URL('./wasm/sdconv_bg.wasm', import.meta.url)),
  fonts: () => readFile(new URL('./wasm/sdconv_fonts.bin', import.meta.url)),
  load: async (path) => ({
    bytes: new Uint8Array(await readFile(path)),
    name: basename(path),
    readImage: imageReader(path),
  }),
});

export const { init, convert, formats, registerFont, SdconvError, _crashForTests } = api;
