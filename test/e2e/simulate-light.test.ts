import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { modulesLoadedBy } from '../helpers/modules-loaded.js'

const root = new URL('../../', import.meta.url)
const SDKS = /\/node_modules\/(openai|@anthropic-ai|ai|@ai-sdk|@langchain)\//

/** The source files the bundled files of dist/ among `loaded` hold (from their source maps). */
function ourSources(loaded: readonly string[]): string[] {
  return [...new Set(loaded.filter((url) => url.includes('/dist/src/') && url.endsWith('.js')))].flatMap((url) => {
    const map = JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as { sources: string[] }
    return map.sources.map((source) => new URL(source, url).pathname.replace(fileURLToPath(root), ''))
  })
}

describe("import('reagent-flow/simulate')", () => {
  it('loads no SDK and no adapter, also when a simulated tool is made', () => {
    const loaded = modulesLoadedBy(
      `
      const { simulatedTool } = await import('reagent-flow/simulate')
      simulatedTool('lookup', { description: 'd', parameters: { type: 'object' }, answer: { model: { client: { chat: { completions: { create() {} } } }, model: 'gpt-4o-mini' }, scenario: 's' } })
    `,
      root,
    )
    expect(loaded.filter((url) => SDKS.test(url))).toEqual([])
    expect(ourSources(loaded).filter((source) => source.startsWith('adapters/'))).toEqual([])
  })

  it("loads the AI SDK adapter only when an AI SDK model's tool is asked, and no other SDK", () => {
    const loaded = modulesLoadedBy(
      `
      const { simulatedTool } = await import('reagent-flow/simulate')
      const { scriptedLanguageModel } = await import('reagent-flow/fake')
      const tool = simulatedTool('lookup', { description: 'd', parameters: { type: 'object' }, answer: { model: scriptedLanguageModel([{ text: '{"ok":true}' }]), scenario: 's' } })
      if (JSON.stringify(await tool({})) !== '{"ok":true}') process.exit(1)
    `,
      root,
    )
    expect(
      ourSources(loaded)
        .filter((source) => source.startsWith('adapters/'))
        .some((source) => source.startsWith('adapters/ai-sdk/')),
    ).toBe(true)
    expect(ourSources(loaded).filter((source) => /^adapters\/(openai|anthropic|langchain)\//.test(source))).toEqual([])
    expect(loaded.filter((url) => /\/node_modules\/(openai|@anthropic-ai|@langchain)\//.test(url))).toEqual([])
  })
})
