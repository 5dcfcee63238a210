/** The installed reagent-flow's version (for the MCP server's info and `serve`'s start line), read through the package's own name. */
import { createRequire } from 'node:module'

export const PACKAGE_VERSION: string = (createRequire(import.meta.url)('reagent-flow/package.json') as { version: string }).version
