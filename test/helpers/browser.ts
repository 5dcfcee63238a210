/**
 * Debian's Chromium driven by playwright-core, one browser per test file:
 * a fresh profile directory, no network of its own (no updates, no sync, no
 * QUIC), headless. `.ci/run` installs the `chromium` package; without it the
 * browser tests are skipped locally (with a line saying how to run them) and
 * fail in CI.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe } from 'vitest'

import { CHROMIUM, runBrowserTests } from './chromium.js'

export { CHROMIUM, runBrowserTests }
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
]

export async function launchChromium(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'reagent-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  })
  return {
    context,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

export interface BrowserFixture {
  /** The one page of the file's tests, reused (navigate it). */
  page: Page
  context: BrowserContext
  /** Errors the pages threw, and console errors: a test that expects none checks this. */
  errors: string[]
}

/** `describe` with one browser and one page for the whole block. */
export function describeInBrowser(name: string, body: (browser: BrowserFixture) => void): void {
  if (!runBrowserTests) {
    describe.skip(`${name} (Chromium is not installed: apt-get install chromium, or set REAGENT_CHROMIUM)`, () => body({} as BrowserFixture))
    return
  }
  describe(name, () => {
    const fixture = { errors: [] } as unknown as BrowserFixture
    let close: (() => Promise<void>) | undefined
    beforeAll(async () => {
      const launched = await launchChromium()
      close = launched.close
      fixture.context = launched.context
      fixture.page = launched.context.pages()[0] ?? (await launched.context.newPage())
      fixture.page.on('pageerror', (error) => fixture.errors.push(error.message))
      fixture.page.on('console', (message) => {
        if (message.type() === 'error') fixture.errors.push(message.text())
      })
    }, 60_000)
    afterAll(async () => close?.())
    body(fixture)
  })
}
