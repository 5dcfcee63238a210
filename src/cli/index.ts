#!/usr/bin/env node
import { main } from './main.js'

// `reagent-flow list | head` closes the pipe early: that is not an error, stop quietly as git does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw error
})

// Warnings (a skipped unreadable file) become plain lines on stderr, without
// Node's "(node:1234)" prefix and its hint about --trace-warnings.
process.removeAllListeners('warning')
process.on('warning', (warning) => {
  process.stderr.write(`${warning.name === 'ReagentWarning' ? '' : `${warning.name}: `}${warning.message}\n`)
})

process.exitCode = await main(process.argv.slice(2))
