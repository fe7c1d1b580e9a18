// The default (browser, worker, edge) entry given its engine by init(): a compiled
// WebAssembly.Module, as Workers and edge runtimes have it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, convert, formats } from '../index.js';
import { jsDir, sample } from './helpers.js';

test('init(WebAssembly.Module), then convert, on the default entry', async () => {
  const module = await WebAssembly.compile(readFileSync(join(jsDir, 'wasm/sdconv_bg.wasm')));
  await init(module);
  // A second init changes nothing.
  await init(new Uint8Array([0, 1, 2]));
  assert.ok((await formats()).length >= 8);
  const out = await convert(new Uint8Array(readFileSync(sample)), 'markdown');
  assert.match(out.text, /^# /m);
  // A path is for Node's entry only.
  await assert.rejects(convert(sample, 'markdown'), TypeError);
});
