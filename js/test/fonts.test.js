// Fonts for PDF: the bundled ones write Latin; another script needs a font given as bytes, and
// it stays registered across the instance a trap makes necessary. Its own file: registered
// fonts last for the process (node --test runs each file in a process of its own).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { convert, registerFont, _crashForTests } from '../node.js';

const DEVANAGARI = '/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf';
const skip = !existsSync(DEVANAGARI) && `no ${DEVANAGARI} (apt-get install fonts-noto-core)`;

const text = new TextEncoder().encode('# नमस्ते दुनिया\n\nLatin too.\n');
const missing = (out) => out.warnings.filter((w) => /U\+09|no available font/i.test(w.message));

test('a registered font writes what the bundled ones cannot, also after a trap', { skip }, async () => {
  const before = await convert(text, 'pdf');
  assert.ok(missing(before).length > 0, 'Devanagari without a font is named in a warning');
  await assert.rejects(registerFont(new Uint8Array([1, 2, 3])), { kind: 'invalid_input' });
  assert.ok((await registerFont(readFileSync(DEVANAGARI))) >= 1);
  const after = await convert(text, 'pdf');
  assert.deepEqual(missing(after), []);
  assert.match(Buffer.from(after.data).toString('latin1'), /NotoSansDevanagari/);
  await assert.rejects(_crashForTests(), { kind: 'internal_error' });
  const again = await convert(text, 'pdf');
  assert.deepEqual(missing(again), []);
  assert.match(Buffer.from(again.data).toString('latin1'), /NotoSansDevanagari/);
});
