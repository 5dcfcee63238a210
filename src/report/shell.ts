/**
 * Commands printed for a user to paste: every argument quoted for a POSIX
 * shell when it needs it (spaces, `>`, quotes, `$`, globs), so a test named
 * `refund > order "42" $5` pastes as one argument.
 */

const SAFE = /^[\w@%+=:,./-]+$/

/** `arg` as one shell word. */
export function shellQuote(arg: string): string {
  if (arg !== '' && SAFE.test(arg)) return arg
  return `'${arg.replace(/'/g, `'\\''`)}'`
}

/** A command line from its words, each quoted as it needs. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(' ')
}
