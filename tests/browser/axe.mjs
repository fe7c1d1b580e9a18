// Accessibility check of sdconv HTML exports: axe-core run in headless Chromium on each page.
//   node axe.mjs [--rtl PAGE.html] [--screenshot OUT.png] PAGE.html...
// For every page: axe-core (from node_modules) with the WCAG 2.1 A/AA tags and the best-practice
// rules (colour contrast included: it is in wcag2aa). Each violation is printed with its rule id,
// impact, help text, how many elements, the first few target selectors and the first element's
// HTML; a page with any
// violation fails. The last line is `axe: N passed, M failed` (pages); exit status 1 on failures.
//
// --rtl PAGE.html (repeatable) also checks that right-to-left text is laid out right to left: the
// first paragraph of <main> has text, and its last line box ends at the content box's right edge
// and starts inside the left edge (a left-aligned line fails). A screenshot of
// the page is written to a temporary file (or to --screenshot OUT.png) for a human to look at.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowser } from './browser.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
// Selectors printed per violation; the count says how many there are in all.
const SHOWN_TARGETS = 5;

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const pages = [];
const rtl = new Set();
let screenshot = null;
const args = process.argv.slice(2);
while (args.length) {
  const a = args.shift();
  if (a === '--screenshot') screenshot = args.shift();
  else if (a === '--rtl') {
    const page = args.shift();
    rtl.add(page);
    pages.push(page);
  } else pages.push(a);
}
if (!pages.length || pages.some((p) => !p)) {
  console.error('usage: node axe.mjs [--rtl PAGE.html] [--screenshot OUT.png] PAGE.html...');
  process.exit(2);
}

let failures = 0;
let violations = 0;
let browser;
let context;
try {
  browser = await openBrowser();
  ({ context } = browser);
  for (const file of [...new Set(pages)]) {
    const problems = await checkPage(file);
    for (const p of problems) console.error(`FAIL ${file}: ${p}`);
    failures += problems.length ? 1 : 0;
  }
} catch (e) {
  console.error(`FAIL browser: ${e.message}`);
  failures += 1;
} finally {
  if (browser) await browser.close();
}
const total = new Set(pages).size;
console.log(`axe: ${violations} violation(s)`);
console.log(`${Math.max(0, total - failures)} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);

async function checkPage(file) {
  const problems = [];
  const page = await context.newPage();
  // A phone-sized window: tables wider than the text scroll, so the scrollable-region rule
  // sees the wrapper as it is on a small screen.
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto(pathToFileURL(resolve(file)).href, { waitUntil: 'load' });
    await page.addScriptTag({ path: axePath });
    const found = await page.evaluate(async (tags) => {
      const r = await window.axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
        summary: v.nodes[0]?.failureSummary ?? '',
        html: v.nodes[0]?.html ?? '',
      }));
    }, TAGS);
    for (const v of found) {
      violations += v.targets.length;
      const shown = v.targets.slice(0, SHOWN_TARGETS).join(' | ');
      const more = v.targets.length > SHOWN_TARGETS ? ` | … (${v.targets.length - SHOWN_TARGETS} more)` : '';
      const html = v.html.length > 200 ? `${v.html.slice(0, 200)}…` : v.html;
      problems.push(`${v.id} (${v.impact}) ×${v.targets.length}: ${v.help}: ${shown}${more}\n` +
        `    ${v.summary.replace(/\n\s*/g, ' ')}\n    first: ${html}`);
    }
    if (rtl.has(file)) {
      await page.setViewportSize({ width: 1000, height: 800 });
      problems.push(...(await checkRtl(page)));
    }
    if (!problems.length) console.log(`${file}: no violations`);
  } catch (e) {
    problems.push(e.message);
  } finally {
    await page.close();
  }
  return problems;
}

// The first paragraph with text in <main>: where its last line box sits in its content box.
async function checkRtl(page) {
  const problems = [];
  const shot = screenshot ?? join(mkdtempSync(join(tmpdir(), 'sdconv-rtl-')), 'page.png');
  await page.screenshot({ path: shot, fullPage: true });
  const box = await page.evaluate(() => {
    const p = [...document.querySelectorAll('main p')].find((e) => e.textContent.trim());
    if (!p) return null;
    const range = document.createRange();
    range.selectNodeContents(p);
    // The last line may be several boxes (runs of either direction): their union.
    const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
    const bottom = Math.max(...boxes.map((r) => r.bottom));
    const onLast = boxes.filter((r) => Math.abs(r.bottom - bottom) < 1);
    const last = onLast.length
      ? { left: Math.min(...onLast.map((r) => r.left)), right: Math.max(...onLast.map((r) => r.right)) }
      : null;
    const b = p.getBoundingClientRect();
    const s = getComputedStyle(p);
    const px = (v) => parseFloat(v) || 0;
    return {
      text: p.textContent.trim().slice(0, 40),
      direction: s.direction,
      contentLeft: b.left + px(s.borderLeftWidth) + px(s.paddingLeft),
      contentRight: b.right - px(s.borderRightWidth) - px(s.paddingRight),
      left: last?.left,
      right: last?.right,
    };
  });
  if (!box) return ['--rtl: no paragraph with text in <main>'];
  const where = `"${box.text}" (direction ${box.direction}): last line ${box.left?.toFixed(1)}–${box.right?.toFixed(1)}, ` +
    `content box ${box.contentLeft.toFixed(1)}–${box.contentRight.toFixed(1)}; screenshot ${shot}`;
  if (!(Math.abs(box.right - box.contentRight) <= 2)) problems.push(`--rtl: the text does not end at the right edge: ${where}`);
  // Flush with the right edge only: a line that also touches the left one proves nothing.
  if (!(box.left - box.contentLeft > 4)) problems.push(`--rtl: the text reaches the left edge: ${where}`);
  if (!problems.length) console.log(`rtl: right-aligned ${where}`);
  return problems;
}
