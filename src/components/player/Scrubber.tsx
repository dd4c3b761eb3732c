/**
 * The scrubber: a native range input (keyboard, touch and screen readers for free) over one canvas
 * that draws a tick per step, coloured by the step's stage, warnings and errors taller and in their
 * own colours. One canvas instead of a node per tick keeps a 1000-step trace cheap to render.
 */
import { memo, useEffect, useRef } from 'react';
import type { FlowModel, FlowStep } from '../../machines/view/flow.ts';
import { fill, useText } from './text.ts';

/** Thumb width in px; the CSS sets the same, so tick i sits under the thumb at value i. */
const THUMB = 16;

function tickColor(s: FlowStep, css: CSSStyleDeclaration): string {
  if (s.severity === 'E' || s.severity === 'F') return css.getPropertyValue('--err');
  if (s.severity === 'W') return css.getPropertyValue('--warn');
  return css.getPropertyValue(`--fp-stage-${s.stage ?? 'none'}`) || css.getPropertyValue('--fp-stage-none');
}

// Drawn empty until the trace arrives, so the row keeps its height (no layout shift at load).
const Ticks = memo(function Ticks({ model }: { model: FlowModel | null }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas || !model) return;
    const draw = (): void => {
      const w = canvas.clientWidth;
      const h = canvas.clientHeight;
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      const ctx = canvas.getContext('2d');
      if (!ctx || w === 0) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, w, h);
      const css = getComputedStyle(canvas);
      const n = model.steps.length;
      const span = Math.max(1, w - THUMB);
      // Ticks narrower than a pixel blur into a band; that is the honest picture of 1000 steps.
      const tw = Math.max(1, Math.min(3, span / n - 1));
      // Group by colour so each colour is one fill path.
      const byColor = new Map<string, Array<[number, number]>>();
      model.steps.forEach((s, i) => {
        const x = THUMB / 2 + (n === 1 ? span / 2 : (i / (n - 1)) * span) - tw / 2;
        const tall = s.severity === 'W' || s.severity === 'E' || s.severity === 'F';
        const c = tickColor(s, css).trim();
        let list = byColor.get(c);
        if (!list) byColor.set(c, (list = []));
        list.push([x, tall ? 0 : h * 0.4]);
      });
      for (const [c, list] of byColor) {
        ctx.fillStyle = c;
        ctx.beginPath();
        for (const [x, y] of list) ctx.rect(x, y, tw, h - y);
        ctx.fill();
      }
    };
    draw();
    const ro = new ResizeObserver(draw);
    ro.observe(canvas);
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    mq.addEventListener('change', draw);
    return () => { ro.disconnect(); mq.removeEventListener('change', draw); };
  }, [model]);
  return <canvas ref={ref} className="fp-ticks" aria-hidden="true" />;
});

export interface ScrubberProps {
  model: FlowModel | null;
  step: number;
  total: number;
  onSeek: (step: number) => void;
}

export function Scrubber({ model, step, total, onSeek }: ScrubberProps) {
  const summary = model?.steps[step - 1]?.summary ?? '';
  const t = useText();
  return (
    <div className="fp-scrubber">
      <Ticks model={model} />
      <input
        type="range"
        data-fp-scrubber=""
        min={1}
        max={Math.max(1, total)}
        step={1}
        value={Math.max(1, step)}
        disabled={!model}
        aria-label={t.scrubber}
        aria-valuetext={model ? fill(t.scrubberValue, { step, total, summary }) : t.loading}
        onChange={(e) => onSeek(Number(e.currentTarget.value))}
      />
    </div>
  );
}
