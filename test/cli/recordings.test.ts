import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderRecording, type Recording } from '../../src/replay/recording-format.js'
import { tempDir } from '../helpers/temp-dir.js'
import { runCli, runJson } from './run-cli.js'

const DAY = 86_400

function recording(name: string, calls: number, users: string[] = ['alice']): Recording {
  return {
    recording: 1,
    name,
    scopes: users.map((user) => ({
      session_id: null,
      user_id: user,
      steps: [
        ...Array.from({ length: calls }, (_, i) => ({
          kind: 'exchange' as const,
          endpoint: 'openai POST /chat/completions',
          request: { n: i },
          response: { status: 200, body: { ok: true } },
        })),
        { kind: 'tool' as const, name: 'lookup_order', input: { id: '42' }, result: 'shipped', async: true },
      ],
    })),
  }
}

/** A project with three recordings: one used today, one used 10 days ago, one in a test file's folder unused for 40 days. */
function project(): { cwd: string; now: number } {
  const cwd = tempDir('reagent-cli-')
  const dir = join(cwd, '.reagent')
  mkdirSync(join(dir, 'test', 'refund.test.ts'), { recursive: true })
  const now = Math.floor(Date.now() / 1000)
  const files: Array<[string, Recording, number, number]> = [
    ['support.recording.json', recording('support', 2, ['alice', 'bob']), now - 3 * DAY, now - 60],
    ['weather.recording.json', recording('weather', 1), now - 20 * DAY, now - 10 * DAY],
    [join('test', 'refund.test.ts', 'refund agent.recording.json'), recording('refund agent', 3), now - 50 * DAY, now - 40 * DAY],
  ]
  for (const [file, content, recorded, used] of files) {
    const path = join(dir, file)
    writeFileSync(path, renderRecording(content))
    utimesSync(path, used, recorded)
  }
  // A trace file beside them is no recording.
  writeFileSync(join(dir, 'support.trace.json'), '{}')
  return { cwd, now }
}

describe('reagent-flow recordings', () => {
  it('lists every recording under the trace directory with its scopes, calls, tool runs, size, age and last use', () => {
    const { cwd } = project()
    const { code, stdout, stderr } = runCli(['recordings'], cwd)
    expect([code, stderr]).toEqual([0, ''])
    const lines = stdout.split('\n')
    expect(lines[0]).toMatch(/^FILE +SCOPES +CALLS +TOOL RUNS +SIZE +RECORDED +LAST USE$/)
    expect(lines.slice(1, 4).map((line) => line.split(/ {2,}/))).toEqual([
      [join('.reagent', 'support.recording.json'), '2', '4', '2', expect.stringMatching(/^\d+(\.\d)? (B|KiB)$/), '3 days ago', '1 min ago'],
      [
        join('.reagent', 'test', 'refund.test.ts', 'refund agent.recording.json'),
        '1',
        '3',
        '1',
        expect.stringMatching(/^\d+(\.\d)? (B|KiB)$/),
        '50 days ago',
        '40 days ago',
      ],
      [join('.reagent', 'weather.recording.json'), '1', '1', '1', expect.stringMatching(/^\d+(\.\d)? (B|KiB)$/), '20 days ago', '10 days ago'],
    ])
    expect(lines[4]).toMatch(/^3 recordings, \d+\.\d KiB$/)
  })

  it('reports them as JSON, and looking at them is not a use', () => {
    const { cwd, now } = project()
    const first = runJson<{ recordings: Array<{ file: string; name: string; last_used_at: number; recorded_at: number }> }>(['recordings'], cwd)
    const second = runJson<typeof first.json>(['recordings'], cwd)
    expect(first.json.recordings.map((row) => [row.name, Math.round(now - row.last_used_at), Math.round(now - row.recorded_at)])).toEqual([
      ['support', 60, 3 * DAY],
      ['refund agent', 40 * DAY, 50 * DAY],
      ['weather', 10 * DAY, 20 * DAY],
    ])
    expect(second.json).toEqual(first.json)
  })

  it('--prune removes the recordings no session used for --unused-for days (default 30); --dry-run removes nothing', () => {
    const { cwd } = project()
    const refund = join('.reagent', 'test', 'refund.test.ts', 'refund agent.recording.json')
    const dry = runCli(['recordings', '--prune', '--dry-run'], cwd)
    expect(dry.stdout.split('\n').at(-2)).toMatch(
      new RegExp(`^would remove 1 recording \\(\\d+(\\.\\d)? (B|KiB)\\) not used for 30 days: ${refund.replace(/[.]/g, '\\.')}$`),
    )
    expect(existsSync(join(cwd, refund))).toBe(true)

    const pruned = runJson<{ pruned: string[] }>(['recordings', '--prune', '--unused-for', '7'], cwd)
    expect(pruned.json.pruned).toEqual([refund, join('.reagent', 'weather.recording.json')])
    expect(existsSync(join(cwd, refund))).toBe(false)
    expect(existsSync(join(cwd, '.reagent', 'weather.recording.json'))).toBe(false)
    expect(existsSync(join(cwd, '.reagent', 'support.recording.json'))).toBe(true)
  })

  it('names a file that is not a recording on stderr and lists the rest; a bad --unused-for is a usage error', () => {
    const { cwd } = project()
    writeFileSync(join(cwd, '.reagent', 'broken.recording.json'), '{"recording": 2}')
    const { code, stderr } = runCli(['recordings'], cwd)
    expect(code).toBe(0)
    expect(stderr).toBe(
      `reagent-flow recordings: skipped ${join('.reagent', 'broken.recording.json')}: ${join('.reagent', 'broken.recording.json')} is not a readable reagent-flow recording: "recording" is not 1. Record it again (REAGENT_REPLAY=record) or delete it.\n`,
    )
    expect(runCli(['recordings', '--prune', '--unused-for', 'a week'], cwd)).toMatchObject({
      code: 2,
      stderr: 'reagent-flow recordings: --unused-for must be a number of days (30, 7.5); got "a week"\n',
    })
  })
})
