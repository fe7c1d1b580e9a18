// Debian's Chromium, headless, in a throw-away profile: shared by check.mjs and axe.mjs.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Returns `{ context, close }`; `close()` ends the browser and removes its profile.
export async function openBrowser() {
  const profile = mkdtempSync(join(tmpdir(), 'sdconv-chromium-'));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    });
    return {
      context,
      close: async () => {
        await context.close();
        removeProfile();
      },
    };
  } catch (e) {
    removeProfile();
    throw e;
  }
}
