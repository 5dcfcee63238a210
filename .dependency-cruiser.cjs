/**
 * The import rules of reagent-flow (docs/architecture.md draws them): layers, lowest first; a module
 * may import its own layer and the layers below it, never one above. Type imports count too
 * (tsPreCompilationDeps): a type import is still an arrow a reader has to follow.
 */
const LAYERS = [
  // Things with no idea of a trace: warnings, errors, the HTTP server, the SSE codec.
  { name: 'base', path: '^src/(base|errors|http|server)/' },
  // The trace format and pure functions of traces: types, schema, serializer, facts, reports, diff.
  { name: 'trace', path: '^src/(trace|report|diff)/' },
  // Bytes on disk and what may reach them: files, journal, recordings, redaction.
  { name: 'storage', path: '^src/(storage|redact)/' },
  // Judging a trace: the golden engine and the assertions (a Session is its assertions plus a recorder).
  { name: 'judge', path: '^src/(golden|assert)/' },
  // The core of recording: Session, its lifecycle and internals, the recorder, its context.
  { name: 'session', path: '^src/session/' },
  // Features that subscribe to the lifecycle, and tools on finished runs.
  { name: 'features', path: '^src/(replay|faults|limits|ledger|otel|viewer|watch|chain|fake)/' },
  // A session with its features, repeat and resume, and vitest's side of it.
  { name: 'runs', path: '^src/(run|repeat|vitest)/' },
  // The one call lifecycle adapters translate into.
  { name: 'adapter-support', path: '^src/adapter-support/' },
  { name: 'adapters', path: '^adapters/' },
  // Public entry points (one per subpath of package.json's exports) and the CLI.
  { name: 'entries', path: '^src/(entries|cli)/' },
]

const WARNINGS = '^src/base/warnings\\.ts$'

const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `no-upward-from-${layer.name}`,
  comment: `${layer.name} may import only itself and the layers below it (docs/architecture.md)`,
  severity: 'error',
  from: layer.name === 'base' ? { path: layer.path, pathNot: WARNINGS } : { path: layer.path },
  to: { path: LAYERS.slice(index + 1).map((above) => above.path) },
}))

/**
 * The one arrow allowed upward, and only this edge: a warning quotes what it
 * is about (a session's name, a URL, an error's message) into CI logs, so
 * `warn()` redacts it through the one way in to redaction, `redactForDisk`.
 * Code from base (recordSafely) to the CLI warns, so the warnings stay in base; the
 * redaction walks JSON with the trace layer's checks, so it cannot come down.
 */
const warningsRedact = {
  name: 'no-upward-from-base-warnings',
  comment: 'base/warnings.ts may import redact/for-disk.ts (to redact what a warning quotes), and nothing else above base',
  severity: 'error',
  from: { path: WARNINGS },
  to: { path: LAYERS.slice(1).map((above) => above.path), pathNot: '^src/redact/for-disk\\.ts$' },
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle, type imports included: a circle is a layer that cannot be read on its own',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    warningsRedact,
    {
      name: 'adapters-only-through-adapter-support',
      comment: 'An adapter is a thin translator: from reagent-flow it imports only src/adapter-support',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^src/', pathNot: '^src/adapter-support/' },
    },
    {
      name: 'adapters-apart',
      comment: 'Adapters do not import each other',
      severity: 'error',
      from: { path: '^adapters/([^/]+)/' },
      to: { path: '^adapters/', pathNot: '^adapters/$1/' },
    },
    {
      name: 'entries-only-re-export',
      comment: 'Nothing inside imports a public entry point: entries are the outside of the package',
      severity: 'error',
      from: { pathNot: '^src/(entries|cli)/' },
      to: { path: '^src/entries/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/viewer/client/', '\\.json$'] },
    moduleSystems: ['es6'],
    // Subpath exports of the dependencies (@modelcontextprotocol/sdk/types.js) resolve as Node resolves them.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default', 'types'], mainFields: ['module', 'main', 'types'] },
  },
}
