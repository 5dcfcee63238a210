/**
 * The one owner of the disk (the files are in storage/): where traces live,
 * how they are written (streamed, atomic, redacted), read (any size), and
 * journalled while a session is open. Nothing else in reagent-flow calls
 * `fs` for traces.
 */
export {
  DEFAULT_TRACE_DIR,
  TRACE_FILE_SUFFIX,
  JOURNAL_SUFFIX,
  RECORDING_SUFFIX,
  CONTRACT_FILE_SUFFIX,
  contractFilePath,
  sanitizeName,
  tracePath,
  traceFilePath,
  fileStem,
  fileKeyOf,
  fileIdentity,
  journalPath,
  parseJournalName,
  recordingPath,
} from './paths.js'
export { resolveTraceFile } from './naming.js'
export { writeAtomic, writeFileAtomic, readTextOrNull } from './atomic-write.js'
export { prepareFilesAtomic, type FileText, type PreparedFiles } from './atomic-batch.js'
export { appendText } from './append-text.js'
export { renderTrace, traceChunks, writeChunks, pieceRedactor } from './trace-writer.js'
export { readTraceFile } from './trace-reader.js'
export { readTraceFields, readTraceFieldsOrUndefined, peekTraceFields } from './trace-fields.js'
export { loadTrace, readRun } from './runs.js'
export { updateGrade } from './grade.js'
export {
  listTraceFiles,
  listRunFiles,
  goldenFolders,
  NOT_RUNS,
  isFile,
  unreadableReason,
  loadTraceOrSkip,
  scanTraceDirectory,
  sweepTraceDirectory,
} from './directory.js'
export { sweepDirectory, recoverJournal, removeQuietly } from './recovery.js'
export { readJournal } from './journal-reader.js'
export { JournalWriter } from './journal-writer.js'
export {
  readRecordingText,
  writeRecordingText,
  markRecordingUsed,
  statRecording,
  peekRecordingText,
  listRecordingFiles,
  removeRecording,
} from './recording-files.js'
export { loadPriceTable, defaultPriceTable } from './price-file.js'
export { listTraceTree, isInsideRoot, realPathInside, treePathOf } from './trace-tree.js'

export type { TraceLocation, TraceIdentity } from './paths.js'
export type { TextSink } from './atomic-write.js'
export type { TraceFile, TraceFieldsFile, SkippedFile, TraceDirectory } from './directory.js'
export type { JournalFile } from './journal-reader.js'
export type { RecordingListener, StepListener } from './journal-writer.js'
export type { RecordingFileStat } from './recording-files.js'
export type { TraceTree, TreeFile, TreeOptions } from './trace-tree.js'
export type { CloseRecord, JournalWriterId, StepRecord, ExchangeRecord, ToolRecord, RecordedResponse, RecordedEvent } from './journal-format.js'
