/**
 * What a new user meets in the first hour, as the docs say it: a project
 * set up as the README sets it up runs without a warning, every command is
 * in docs/cli.md's table, and a command that needs packages reagent-flow
 * does not install is never shown without them.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../src/cli/main.js'
import { installCommand, MCP_PACKAGES, SERVER_PACKAGES } from '../../src/base/optional-dependency.js'
import { codeBlocks, docPages, REPO } from '../helpers/doc-examples.js'

const textOf = (file: string): string => readFileSync(join(REPO, file), 'utf8')

/** The commands docs/cli.md's table has a row for: the words of each row's first cell before its arguments (`ci merge` of `ci merge <results...>`). */
function commandsInTable(): string[] {
  const lines = textOf('docs/cli.md').split('\n')
  const header = lines.indexOf('| command | what it does |')
  expect(header, 'docs/cli.md has a table headed "| command | what it does |"').toBeGreaterThan(-1)
  const rows = []
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break
    rows.push(/^\| `([\w-]+(?: [a-z][\w-]*)?)/.exec(line)?.[1] ?? line)
  }
  return rows
}

describe('docs/cli.md', () => {
  it('has one row in its command table for every command of the CLI, and none for a command there is not', () => {
    expect(commandsInTable().sort()).toEqual(COMMANDS.map((command) => command.name).sort())
  })
})

describe('a new project, as the docs set it up', () => {
  it('is an ES module project: the README makes one, and every shell block that runs `npm init` runs `npm pkg set type=module` too', () => {
    expect(textOf('README.md')).toContain('`npm init -y && npm pkg set type=module`')
    for (const page of docPages()) {
      for (const block of codeBlocks(page).filter((block) => ['sh', 'bash', 'shell', 'console'].includes(block.lang))) {
        if (/npm init\b/.test(block.code)) expect(block.code, `${page.file}:${block.line}`).toContain('npm pkg set type=module')
      }
    }
  })
})

describe('the commands whose packages reagent-flow does not install', () => {
  it.each([
    ['npx reagent-flow view', installCommand(SERVER_PACKAGES)],
    ['npx reagent-flow serve', installCommand([...SERVER_PACKAGES, ...MCP_PACKAGES])],
  ])('are shown (`%s`) only on pages that say what to install: %s', (command, install) => {
    const pages = docPages().filter((page) => textOf(page.file).includes(command))
    expect(pages.length).toBeGreaterThan(0)
    for (const page of pages) expect(textOf(page.file), `${page.file} shows ${command}`).toContain(install)
  })
})
