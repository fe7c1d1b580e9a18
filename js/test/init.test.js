// The default (browser, worker, edge) entry given its engine by init(): a compiled
// WebAssembly.Module, as Workers and edge runtimes have it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, convert, formats } from '../index.js';
import { jsDir, sample } from './helpers.js';

test('init(WebAssembly.Module, { fonts }), then convert, on the default entry', async () => {
  const module = await WebAssembly.compile(readFileSync(join(jsDir, 'wasm/sdconv_bg.wasm')));
  await init(module, { fonts: readFileSync(join(jsDir, 'wasm/sdconv_fonts.bin')) });
  // A second init changes nothing.
  await init(new Uint8Array([0, 1, 2]));
  assert.ok((await formats()).length >= 8);
  const out = await convert(new Uint8Array(readFileSync(sample)), 'markdown');
  assert.match(out.text, /^# /m);
  // The fonts file given to init() is loaded for the first PDF.
  const pdf = await convert(new TextEncoder().encode('# Title\n\nText.\n'), 'pdf');
  assert.match(Buffer.from(pdf.data).toString('latin1'), /DejaVuSerif/);
  assert.deepEqual(pdf.warnings, []);
  // A path is for Node's entry only.
  await assert.rejects(convert(sample, 'markdown'), TypeError);
});
