export { default } from '../vitest/reporter.js'
export type { ReagentReporterOptions } from '../vitest/reporter.js'
export type { RunResults, TestResult, RunResult } from '../results/types.js'
