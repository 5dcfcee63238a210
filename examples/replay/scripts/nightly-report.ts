// scripts/nightly-report.ts
import OpenAI from 'openai'
import { resume, session, traceTool } from 'reagent-flow'
import { instrumentOpenAI } from 'reagent-flow/openai'

const openai = instrumentOpenAI(new OpenAI())

// A tool that calls a paid service: a resumed run does not pay for it twice.
const fetchSales = traceTool('fetch_sales', async ({ day }: { day: string }) => {
  const response = await fetch(`${process.env.SALES_API}/sales?day=${day}`)
  if (!response.ok) throw new Error(`the sales API answered ${response.status}`)
  return (await response.json()) as { total: number }
})

async function nightlyReport(day: string): Promise<string> {
  const sales = await fetchSales({ day })
  const { choices } = await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: `Write one line about sales of ${sales.total} on ${day}.` }],
  })
  const summary = choices[0]!.message.content ?? ''
  const check = await fetch(`${process.env.SALES_API}/publish`, { method: 'POST', body: summary })
  if (!check.ok) throw new Error(`publishing failed: ${check.status}`)
  return summary
}

// `npx tsx scripts/nightly-report.ts` runs it; after a failure, `--resume` picks the run up where it stopped.
const day = '2026-05-08'
const run = process.argv.includes('--resume') ? resume : session
const s = await run('nightly-report', { sessionId: `report-${day}` }, () => nightlyReport(day))
console.log(`${s.output} (${s.trace.replayed_steps ?? 0} steps replayed)`)
