import { describeConformance } from './conformance/index.js'
import { startDirectoryLedger } from './harness.js'

describeConformance('directory store', startDirectoryLedger)
