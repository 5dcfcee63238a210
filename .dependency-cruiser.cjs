/**
 * The import rules of reagent-flow (docs/architecture.md draws them): layers, lowest first; a module
 * may import its own layer and the layers below it, never one above. Type imports count too
 * (tsPreCompilationDeps): a type import is still an arrow a reader has to follow.
 */
const LAYERS = [
  // Things with no idea of a trace: errors, JSON types, the HTTP server, the SSE codec.
  { name: 'base', path: '^src/(base|errors|http|server)/' },
  // The trace format and pure functions of traces: types, schema, serializer, facts, reports, diff.
  { name: 'trace', path: '^src/(trace|report|diff)/' },
  // What leaves the process, and what may reach it: files, the journal, recordings, warnings; redaction.
  { name: 'storage', path: '^src/(storage|redact|warnings)/' },
  // Judging a trace: the golden engine and the assertions (a Session is its assertions plus a recorder);
  // judging runs: regression or noise, flaky tests, the quarantine.
  { name: 'judge', path: '^src/(golden|contract|assert|compare)/' },
  // The core of recording: Session, its lifecycle and internals, the recorder, its context.
  { name: 'session', path: '^src/session/' },
  // Features that subscribe to the lifecycle, and tools on finished runs.
  { name: 'features', path: '^src/(replay|faults|limits|ledger|viewer|watch|chain|fake|results)/' },
  // A session with its features; what runs sessions: repeat and resume, vitest's side, OpenTelemetry
  // (its importer records spans as sessions, with the features a session has).
  { name: 'runs', path: '^src/(run|repeat|vitest|otel)/' },
  // The one call lifecycle adapters translate into.
  { name: 'adapter-support', path: '^src/adapter-support/' },
  { name: 'adapters', path: '^adapters/' },
  // Simulations (reagent-flow/simulate): users, tools and judges that ask a model through an adapter.
  { name: 'simulate', path: '^src/simulate/' },
  // Public entry points (one per subpath of package.json's exports) and the CLI.
  { name: 'entries', path: '^src/(entries|cli)/' },
]

const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `no-upward-from-${layer.name}`,
  comment: `${layer.name} may import only itself and the layers below it (docs/architecture.md)`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: LAYERS.slice(index + 1).map((above) => above.path) },
}))

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
