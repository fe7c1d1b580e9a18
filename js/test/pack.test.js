// `npm pack` gives a package that installs into a fresh folder and converts with the two lines
// js/README.md shows.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsDir, sample } from './helpers.js';

test('npm pack, npm install into a fresh folder, convert', { timeout: 180_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'sdconv-js-pack-'));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: jsDir, encoding: 'utf8' }),
    )[0];
    const names = packed.files.map((f) => f.path).sort();
    assert.deepEqual(names, [
      'MAMMOTH.md', 'README.md', 'core.js', 'index.d.ts', 'index.js', 'mammoth.d.ts', 'mammoth.js',
      'node.js', 'package.json',
      'wasm/sdconv.js', 'wasm/sdconv_bg.wasm', 'wasm/sdconv_fonts.bin',
    ]);
    const app = join(work, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', join(work, packed.filename)], { cwd: app });
    copyFileSync(sample, join(app, 'report.docx'));
    // The README's two lines, as they stand there.
    const readme = readFileSync(join(jsDir, 'README.md'), 'utf8');
    const lines = /```js\n(import \{ convert \} from 'sdconv';\nconst \{ text \} = await convert\([^\n]*\);)\n```/.exec(readme);
    assert.ok(lines, 'the README shows the two lines');
    writeFileSync(join(app, 'main.js'), `${lines[1]}\nprocess.stdout.write(text);\n`);
    const html = execFileSync('node', ['main.js'], { cwd: app, encoding: 'utf8' });
    assert.match(html, /^<!DOCTYPE html>/i);
    assert.match(html, /<h1[^>]*>/);
    assert.match(html, /data:image\/png;base64,/);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
