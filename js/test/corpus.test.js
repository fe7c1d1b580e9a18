// The corpus: every Word file of ../shared/corpus/docx converted here gives the very bytes the
// native command line writes, for html, markdown, sdxml and json.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { convert, SdconvError } from '../node.js';
import { corpus, noCorpus, cli } from './helpers.js';

const run = promisify(execFile);

function docxFiles() {
  const root = join(corpus, 'docx');
  return readdirSync(root, { recursive: true })
    .filter((f) => f.endsWith('.docx'))
    .sort()
    .map((f) => join(root, f));
}

/** Every file under `dir`, by relative name. */
function filesUnder(dir) {
  if (!existsSync(dir)) return {};
  const out = {};
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) {
      const full = join(f.parentPath ?? f.path, f.name);
      out[relative(dir, full)] = new Uint8Array(readFileSync(full));
    }
  }
  return out;
}

const FORMATS = { html: 'index.html', markdown: 'out.md', sdxml: 'out.sdxml.zip', json: 'out.json' };

const skip = noCorpus || (!cli && 'no native sdconv build (cargo build, or set SDCONV_CLI)');

test('every corpus .docx: byte-identical to the native CLI (html, markdown, sdxml, json)', { skip, timeout: 20 * 60_000 }, async (t) => {
  const files = docxFiles();
  assert.ok(files.length >= 100, `${files.length} files`);
  const work = mkdtempSync(join(tmpdir(), 'sdconv-js-corpus-'));
  let compared = 0;
  let failedBoth = 0;
  try {
    for (const [index, file] of files.entries()) {
      for (const [to, outName] of Object.entries(FORMATS)) {
        const dir = join(work, `${index}-${to}`);
        const target = join(dir, outName);
        mkdirSync(dir, { recursive: true });
        let native = null;
        try {
          await run(cli, ['convert', file, '-o', target, '--to', to], { maxBuffer: 64 << 20 });
        } catch (e) {
          native = e;
        }
        const name = `${relative(corpus, file)} → ${to}`;
        if (native) {
          // The CLI failed: so must the package, with a typed error.
          await assert.rejects(convert(file, to), (e) => e instanceof SdconvError && e.kind !== 'internal_error', name);
          failedBoth += 1;
          continue;
        }
        const out = await convert(file, to);
        const expected = new Uint8Array(readFileSync(target));
        const main = out.text !== undefined ? new TextEncoder().encode(out.text) : out.data;
        assert.ok(Buffer.from(main).equals(Buffer.from(expected)), `${name}: main file differs`);
        if (to === 'html' || to === 'markdown') {
          const beside = filesUnder(dir);
          delete beside[outName];
          assert.deepEqual(Object.keys(out.files).sort(), Object.keys(beside).sort(), `${name}: files`);
          for (const [f, bytes] of Object.entries(beside)) {
            assert.ok(Buffer.from(out.files[f]).equals(Buffer.from(bytes)), `${name}: ${f} differs`);
          }
        }
        compared += 1;
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  t.diagnostic(`${files.length} files, ${compared} outputs identical, ${failedBoth} failed in both`);
  assert.ok(compared > files.length * 3, `${compared} outputs compared`);
});
