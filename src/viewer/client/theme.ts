/** The colour scheme: the system's (auto), light or dark, kept in localStorage, switched by one button in the frame. */
import { h } from './dom.js'

const THEMES = ['auto', 'light', 'dark'] as const
type Theme = (typeof THEMES)[number]

function readTheme(): Theme {
  try {
    const saved = localStorage.getItem('reagent-theme')
    return (THEMES as readonly string[]).includes(saved ?? '') ? (saved as Theme) : 'auto'
  } catch {
    return 'auto'
  }
}

function applyTheme(theme: Theme): void {
  if (theme === 'auto') delete document.documentElement.dataset.theme
  else document.documentElement.dataset.theme = theme
  try {
    localStorage.setItem('reagent-theme', theme)
  } catch {
    // A file opened with storage off: the choice lasts for this page.
  }
}

/** Applies the saved scheme; the button that cycles through them. */
export function themeButton(): HTMLButtonElement {
  let theme = readTheme()
  applyTheme(theme)
  const button = h(
    'button',
    {
      type: 'button',
      class: 'theme',
      on: {
        click: () => {
          theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!
          applyTheme(theme)
          button.textContent = `Theme: ${theme}`
        },
      },
    },
    `Theme: ${theme}`,
  )
  return button
}
