#!/usr/bin/env node
import { main } from './main.js'

// `reagent-flow list | head` closes the pipe early: that is not an error, stop quietly as git does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw error
})

process.exitCode = await main(process.argv.slice(2))
