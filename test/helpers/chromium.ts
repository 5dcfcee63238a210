/** Where Debian's Chromium is, and whether the browser tests run here (it is installed, or this is CI, which must have it). */
import { existsSync } from 'node:fs'

export const CHROMIUM = process.env.REAGENT_CHROMIUM || '/usr/bin/chromium'

const isCi = (): boolean => {
  const ci = process.env.CI?.trim().toLowerCase()
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0'
}

export const runBrowserTests = existsSync(CHROMIUM) || isCi()
