// The package's weight: the .wasm gzipped stays within 3 MB (js/README.md states the size); the
// bundled fonts are a file of their own, loaded on the first export that needs them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { jsDir, repo } from './helpers.js';

test('sdconv_bg.wasm gzipped is at most 3 MB', () => {
  const wasm = readFileSync(join(jsDir, 'wasm/sdconv_bg.wasm'));
  const gzipped = gzipSync(wasm, { level: 9 }).length;
  console.log(`sdconv_bg.wasm: ${wasm.length} bytes, ${gzipped} gzipped`);
  assert.ok(gzipped <= 3_000_000, `${gzipped} bytes gzipped`);
});

test('the fonts file holds the five bundled faces and nothing else', () => {
  const fonts = readFileSync(join(jsDir, 'wasm/sdconv_fonts.bin'));
  const ttf = readdirSync(join(repo, 'templates/pdf/fonts')).filter((n) => n.endsWith('.ttf'));
  const sum = ttf.reduce((n, f) => n + statSync(join(repo, 'templates/pdf/fonts', f)).size, 0);
  console.log(`sdconv_fonts.bin: ${fonts.length} bytes, ${gzipSync(fonts, { level: 9 }).length} gzipped`);
  assert.equal(ttf.length, 5);
  assert.equal(fonts.length, 12 + ttf.reduce((n, f) => n + 6 + f.length, 0) + sum);
});
