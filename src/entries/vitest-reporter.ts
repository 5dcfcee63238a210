export { default } from '../vitest/reporter.js'
export type { ReagentReporterOptions } from '../vitest/reporter.js'
