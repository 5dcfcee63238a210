import { onTestFinished } from 'vitest'

export interface SeenWarning {
  code: string | undefined
  message: string
}

/**
 * Collects ReagentWarnings emitted during the current test. Node delivers
 * warnings on a later tick, so read them through `seen()`.
 */
export function captureWarnings(): { seen: () => Promise<SeenWarning[]> } {
  const collected: SeenWarning[] = []
  const listener = (warning: Error & { code?: string }): void => {
    if (warning.name === 'ReagentWarning') collected.push({ code: warning.code, message: warning.message })
  }
  process.on('warning', listener)
  onTestFinished(() => void process.off('warning', listener))
  return {
    seen: async () => {
      await new Promise((resolve) => setImmediate(resolve))
      return collected
    },
  }
}
