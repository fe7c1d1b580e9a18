// The package's weight: the .wasm gzipped stays within 3 MB (js/README.md states the size).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { jsDir } from './helpers.js';

test('sdconv_bg.wasm gzipped is at most 3 MB', () => {
  const wasm = readFileSync(join(jsDir, 'wasm/sdconv_bg.wasm'));
  const gzipped = gzipSync(wasm, { level: 9 }).length;
  console.log(`sdconv_bg.wasm: ${wasm.length} bytes, ${gzipped} gzipped`);
  assert.ok(gzipped <= 3_000_000, `${gzipped} bytes gzipped`);
});
