/** `reagent-flow grade <run> pass|fail`: records a verdict on the run's trace file. */
import { UsageError } from '../../errors/index.js'
import { updateGrade } from '../../storage/index.js'
import { redactForDisk } from '../../redact/index.js'
import type { Grade } from '../../trace/types.js'
import { stringOption } from '../args.js'
import { EXIT_OK, type Command } from '../command.js'
import { resolveRun } from '../resolve.js'

export const DEFAULT_SOURCE = 'reviewer'
const VERDICTS = ['pass', 'fail'] as const

/** `grade --json` */
export interface GradeOutput {
  file: string
  name: string
  trace_id: string
  /** False when the run already had this verdict, source, reason and ref (the file is not touched). */
  changed: boolean
  grade: Grade
  previous: Grade | null
}

function sameVerdict(a: Grade | undefined, b: Omit<Grade, 'graded_at'>): boolean {
  return a !== undefined && a.grade === b.grade && a.source === b.source && (a.reason ?? null) === b.reason && (a.ref ?? null) === b.ref
}

const describe = (grade: Grade): string => `${grade.grade} (source ${grade.source})`

export const gradeCommand: Command = {
  name: 'grade',
  args: '<run> pass|fail',
  summary: 'record a verdict on a run (list --grade filters on it)',
  details: [
    'The verdict is written into the trace file as "grade": { grade, source, reason, ref, graded_at },',
    'atomically. Grading again with the same verdict, source, reason and ref changes nothing.',
  ],
  options: {
    source: { type: 'string', value: '<who>', default: DEFAULT_SOURCE, description: "who gives the verdict: ci, reviewer, an eval's name..." },
    reason: { type: 'string', value: '<text>', description: 'why' },
    ref: { type: 'string', value: '<ref>', description: 'a link: a CI job, a review, a ticket' },
  },
  positionals: { min: 2, max: 2, names: '<run> and the verdict (pass or fail)' },
  examples: [
    'reagent-flow grade refund-agent pass',
    'reagent-flow grade 01JV6Q3M8X fail --source ci --reason "refunded twice" --ref https://ci.example.com/run/812',
  ],
  run(input, ctx) {
    const [ref, verdict] = input.positionals as [string, string]
    if (!(VERDICTS as readonly string[]).includes(verdict)) throw new UsageError(`the verdict must be pass or fail; got ${JSON.stringify(verdict)}`)
    // Redacted like everything written to a trace (a reason can quote a failing request, key and all).
    const wanted = redactForDisk({
      grade: verdict as Grade['grade'],
      source: stringOption(input, 'source') ?? DEFAULT_SOURCE,
      reason: stringOption(input, 'reason') ?? null,
      ref: stringOption(input, 'ref') ?? null,
    })
    const file = resolveRun(ref, ctx.dir)
    const { trace, previous, written } = updateGrade(file, (read) =>
      sameVerdict(read.grade, wanted) ? undefined : { ...wanted, graded_at: Date.now() / 1000 },
    )
    const changed = written !== undefined
    const out: GradeOutput = { file, name: trace.name, trace_id: trace.trace_id, changed, grade: trace.grade!, previous }
    if (ctx.json) ctx.printJson(out)
    else if (!changed) ctx.print(`${trace.name} is already graded ${describe(out.grade)}; unchanged`)
    else {
      const was = previous === null ? '' : `, was ${describe(previous)}`
      ctx.print(`graded ${ctx.c.bold(trace.name)} ${describe(out.grade)}${was}: ${file}`)
    }
    return EXIT_OK
  },
}
