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
  sanitizeName,
  tracePath,
  traceFilePath,
  fileStem,
  fileKeyOf,
  fileIdentity,
  journalPath,
  parseJournalName,
  recordingPath,
} from './storage/paths.js'
export { resolveTraceFile } from './storage/naming.js'
export { writeAtomic, writeFileAtomic, readTextOrNull } from './storage/atomic-write.js'
export { renderTrace, saveTrace, traceChunks, writeChunks, pieceRedactor } from './storage/trace-writer.js'
export { readTraceFile } from './storage/trace-reader.js'
export { readTraceFields, readTraceFieldsOrUndefined, peekTraceFields } from './storage/trace-fields.js'
export { loadTrace, readRun } from './storage/runs.js'
export { updateGrade } from './storage/grade.js'
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
} from './storage/directory.js'
export { sweepDirectory, recoverJournal, removeQuietly } from './storage/recovery.js'
export { readJournal } from './storage/journal-reader.js'
export { JournalWriter } from './storage/journal-writer.js'
export {
  readRecordingText,
  writeRecordingText,
  markRecordingUsed,
  statRecording,
  peekRecordingText,
  listRecordingFiles,
  removeRecording,
} from './storage/recording-files.js'
export { listTraceTree, isInsideRoot, realPathInside, treePathOf } from './storage/trace-tree.js'

export type { TraceLocation, TraceIdentity } from './storage/paths.js'
export type { TextSink } from './storage/atomic-write.js'
export type { SaveOptions } from './storage/trace-writer.js'
export type { TraceFile, TraceFieldsFile, SkippedFile, TraceDirectory } from './storage/directory.js'
export type { JournalFile } from './storage/journal-reader.js'
export type { RecordingListener, StepListener } from './storage/journal-writer.js'
export type { RecordingFileStat } from './storage/recording-files.js'
export type { TraceTree, TreeFile, TreeOptions } from './storage/trace-tree.js'
export type { CloseRecord, JournalWriterId, StepRecord, ExchangeRecord, ToolRecord, RecordedResponse, RecordedEvent } from './storage/journal-format.js'
