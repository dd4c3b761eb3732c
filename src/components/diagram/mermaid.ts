/**
 * Mermaid, loaded only when a diagram is drawn: `renderMermaid(el, text)` imports the library on its
 * first call (one shared module promise), initialises it once per colour scheme (no start-on-load,
 * strict security: no HTML or scripts in labels; the site's colour tokens as theme), renders the SVG
 * into `el`, and re-renders every diagram it drew when the reader's colour scheme changes. Failures become a readable message in
 * `el`; they are never thrown to the page.
 *
 * Shared by the component pages' state charts (MermaidDiagram.astro) and the flow player.
 */
import type { Mermaid } from 'mermaid';

export interface RenderMermaidOptions {
  /** accessible name of the drawn SVG (role="img") */
  title?: string;
  /** force one of Mermaid's own themes instead of the site's colours for the reader's scheme */
  theme?: 'default' | 'dark' | 'neutral';
}

let modulePromise: Promise<Mermaid> | undefined;
let initialisedTheme: string | undefined;
let counter = 0;
/** renders run one at a time: mermaid measures text in a shared scratch element */
let queue: Promise<unknown> = Promise.resolve();
/** what was drawn where, to redraw it when the colour scheme changes */
const drawn = new Map<HTMLElement, { text: string; opts: RenderMermaidOptions }>();

const darkQuery = (): MediaQueryList | undefined =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : undefined;

function schemeTheme(): 'site-light' | 'site-dark' {
  return darkQuery()?.matches ? 'site-dark' : 'site-light';
}

function loadMermaid(): Promise<Mermaid> {
  modulePromise ??= import('mermaid').then((m) => {
    darkQuery()?.addEventListener('change', redrawAll);
    return m.default;
  });
  // a failed download may succeed later (network back): do not cache the failure
  modulePromise.catch(() => { modulePromise = undefined; });
  return modulePromise;
}

/**
 * Mermaid's "base" theme coloured with the site's own tokens (global.css), so diagrams keep the
 * page's contrast in the light and the dark scheme alike. Read when a diagram is drawn, so the
 * reader's current scheme applies.
 */
function siteThemeVariables(dark: boolean): Record<string, string | boolean> {
  const css = getComputedStyle(document.documentElement);
  const token = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  const bg = token('--bg', dark ? '#14171c' : '#ffffff');
  const fg = token('--fg', dark ? '#e4e7eb' : '#1c1f24');
  const surface = token('--surface', dark ? '#1c2027' : '#f4f6f9');
  const accent = token('--accent', dark ? '#7fb0ff' : '#1f5fbf');
  const muted = token('--muted', dark ? '#9aa3b0' : '#5a6270');
  return {
    darkMode: dark,
    background: bg,
    fontFamily: getComputedStyle(document.body).fontFamily,
    primaryColor: surface,
    primaryTextColor: fg,
    primaryBorderColor: accent,
    secondaryColor: surface,
    tertiaryColor: bg,
    textColor: fg,
    lineColor: muted,
    // state diagrams
    stateBkg: surface,
    stateLabelColor: fg,
    labelColor: fg,
    transitionColor: muted,
    transitionLabelColor: fg,
    edgeLabelBackground: bg,
    labelBackgroundColor: bg,
    compositeBackground: bg,
    compositeTitleBackground: surface,
    altBackground: surface,
    specialStateColor: fg,
    innerEndBackground: fg,
    // sequence diagrams (the flow player)
    actorBkg: surface,
    actorBorder: accent,
    actorTextColor: fg,
    actorLineColor: muted,
    signalColor: fg,
    signalTextColor: fg,
    noteBkgColor: surface,
    noteTextColor: fg,
    noteBorderColor: muted,
  };
}

function ensureInitialised(mermaid: Mermaid, theme: string): void {
  if (initialisedTheme === theme) return;
  const site = theme === 'site-light' || theme === 'site-dark';
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    theme: (site ? 'base' : theme) as 'base',
    ...(site ? { themeVariables: siteThemeVariables(theme === 'site-dark') } : {}),
    suppressErrorRendering: true,
  });
  initialisedTheme = theme;
}

function showError(el: HTMLElement, error: unknown): void {
  const detail = error instanceof Error ? error.message : String(error);
  const p = document.createElement('p');
  p.className = 'mermaid-error';
  const reason = detail.split('\n')[0]?.slice(0, 200);
  // the page's language (<html lang="zh-CN"> on /zh/ pages)
  p.textContent = document.documentElement.lang.startsWith('zh')
    ? `无法绘制这张图（${reason || '未知错误'}）。下面显示的是它的源码。`
    : `The diagram could not be drawn (${reason || 'unknown error'}). Its source is shown instead.`;
  el.replaceChildren(p);
  el.dataset.mermaidState = 'error';
}

/**
 * Draw `text` (Mermaid source) into `el`. Resolves to true when the SVG is in place, false when the
 * diagram could not be drawn (the reason is then shown in `el`).
 */
export function renderMermaid(el: HTMLElement, text: string, opts: RenderMermaidOptions = {}): Promise<boolean> {
  const run = async (): Promise<boolean> => {
    const id = `mermaid-svg-${++counter}`;
    try {
      el.dataset.mermaidState = 'loading';
      const mermaid = await loadMermaid();
      ensureInitialised(mermaid, opts.theme ?? schemeTheme());
      const { svg, bindFunctions } = await mermaid.render(id, text);
      el.innerHTML = svg;
      bindFunctions?.(el);
      const svgEl = el.querySelector('svg');
      if (svgEl) {
        // one accessible image; the text alternative is the source and tables next to it
        svgEl.setAttribute('role', 'img');
        svgEl.removeAttribute('aria-roledescription');
        if (opts.title) svgEl.setAttribute('aria-label', opts.title);
      }
      el.dataset.mermaidState = 'rendered';
      drawn.set(el, { text, opts });
      return true;
    } catch (error) {
      // mermaid may leave its scratch element behind when parsing fails
      document.getElementById(`d${id}`)?.remove();
      document.getElementById(id)?.remove();
      showError(el, error);
      return false;
    }
  };
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}

function redrawAll(): void {
  for (const [el, { text, opts }] of [...drawn]) {
    if (!el.isConnected) {
      drawn.delete(el);
      continue;
    }
    if (!opts.theme) void renderMermaid(el, text, opts);
  }
}
