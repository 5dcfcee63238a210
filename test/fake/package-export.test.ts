import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)

/** Runs an ES module with node from the package root, so `reagent-flow/...` resolves to the built dist/. */
async function runModule(code: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' })
  return stdout
}

it('ships "reagent-flow/fake", whose scriptedFetch and scriptedLanguageModel load with neither LangChain nor the AI SDK installed', async () => {
  // A resolve hook that makes @langchain/*, ai and @ai-sdk/* look uninstalled.
  const hideSdks = `export async function resolve(specifier, context, next) {
    if (/^(@langchain\\/|ai$|@ai-sdk\\/)/.test(specifier)) throw Object.assign(new Error('Cannot find package ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' })
    return next(specifier, context)
  }`
  const stdout = await runModule(`
    import { register } from 'node:module'
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hideSdks)}))
    const { default: OpenAI } = await import('openai')
    const { scriptedFetch, scriptedLanguageModel } = await import('reagent-flow/fake')
    const openai = new OpenAI({ fetch: scriptedFetch([{ text: 'Shipped.' }]), apiKey: 'sk-test' })
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })
    const model = scriptedLanguageModel([{ text: 'Also shipped.' }])
    const result = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] })
    const langchain = await import('reagent-flow/fake/langchain').then(() => 'loaded', (error) => error.message)
    console.log(JSON.stringify([completion.choices[0].message.content, result.content[0].text, langchain]))
  `)
  expect(JSON.parse(stdout)).toEqual(['Shipped.', 'Also shipped.', 'Cannot find package @langchain/core/language_models/chat_models'])
})

it('ships "reagent-flow/fake/langchain" with scriptedChatModel', async () => {
  const stdout = await runModule(`
    import { scriptedChatModel } from 'reagent-flow/fake/langchain'
    const answer = await scriptedChatModel([{ text: 'Shipped.' }]).invoke('Hi')
    console.log(answer.text)
  `)
  expect(stdout).toBe('Shipped.\n')
})
