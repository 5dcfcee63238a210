/**
 * Links that work where the pages are read: README.md is also the npm page,
 * where relative links break, so its links are absolute, into this
 * repository (package.json's `homepage`); a link between pages of docs/
 * names a file that exists and, with `#`, a heading that page has.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeBlocks, docPages, REPO } from '../helpers/doc-examples.js'

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  homepage: string
  repository: { url: string }
  bugs: { url: string }
  version: string
}

/** The page's text outside code blocks. */
function prose(file: string): string {
  const lines = readFileSync(join(REPO, file), 'utf8').split('\n')
  for (const block of codeBlocks({ file, id: '' }).reverse()) lines.splice(block.line - 1, block.code.split('\n').length + 1)
  return lines.join('\n')
}

function links(file: string): string[] {
  return [...prose(file).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!)
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes; repeats numbered. */
function anchors(file: string): Set<string> {
  const out = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, heading] of prose(file).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replaceAll(' ', '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    out.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return out
}

describe('package.json', () => {
  it('names the repository, its home page and where to report bugs, all on one base', () => {
    expect(pkg.homepage).toMatch(/^https:\/\/github\.com\/[\w-]+\/[\w-]+#readme$/)
    const base = pkg.homepage.replace(/#readme$/, '')
    expect(pkg.repository.url).toBe(`git+${base}.git`)
    expect(pkg.bugs.url).toBe(`${base}/issues`)
  })
})

describe('README.md', () => {
  it('links only to absolute addresses, those into the repository on its base', () => {
    const base = pkg.homepage.replace(/#readme$/, '')
    for (const link of links('README.md')) {
      expect(link, 'a relative link breaks on the npm page').toMatch(/^https:\/\//)
      if (link.startsWith('https://github.com/')) expect(link.startsWith(`${base}/blob/main/`) || link.startsWith(`${base}/tree/main/`), link).toBe(true)
    }
  })

  it('links to files that exist in the repository, at headings they have', () => {
    const base = pkg.homepage.replace(/#readme$/, '')
    for (const link of links('README.md').filter((link) => link.startsWith(base))) {
      const [path, anchor] = link.replace(/^.*?\/(?:blob|tree)\/main\//, '').split('#')
      expect(existsSync(join(REPO, path!)), link).toBe(true)
      if (anchor !== undefined) expect(anchors(path!).has(anchor), link).toBe(true)
    }
  })
})

describe.each(docPages().filter((page) => page.file !== 'README.md'))('$file', ({ file }) => {
  it('links to files that exist, at headings they have', () => {
    for (const link of links(file)) {
      if (/^[a-z]+:/.test(link)) continue
      const [path, anchor] = link.split('#')
      const target = path === '' ? file : normalize(join(dirname(file), path!))
      expect(existsSync(join(REPO, target)), `${file}: ${link}`).toBe(true)
      if (anchor !== undefined && target.endsWith('.md')) expect(anchors(target).has(anchor), `${file}: ${link}`).toBe(true)
    }
  })
})
