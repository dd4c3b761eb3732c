/**
 * The presenter's part of the player (/present/<scenario>/): what to show beside the step, full
 * screen, the speaker-notes window kept in step over a BroadcastChannel, and the clicker keys (B or
 * "." blanks the screen, F goes full screen). Loaded by the player in presenter mode only, so a
 * chapter ships none of it.
 */
import { useEffect, useRef } from 'react';
import type { StepRequest } from '../../machines/view/player.machine.ts';
import { ownsKeys } from './model.ts';
import { isPresentMessage, presentChannel, type PresentMessage } from './present.ts';
import { fill, type PlayerText } from './text.ts';

export type Show = 'diagram' | 'log' | 'objects' | 'world';

const toggleFullscreen = (): void => {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
  else void document.documentElement.requestFullscreen?.().catch(() => {});
};

export default function Presenter({ t, scenario, step, total, k8s, show, onShow, onBlank, onGoto }: {
  t: PlayerText; scenario: string;
  /** where the player is (total 0: no flow yet) */
  step: number; total: number; k8s: string;
  show: Show; onShow: (s: Show) => void;
  onBlank: (f: (blank: boolean) => boolean) => void;
  onGoto: (step: StepRequest) => void;
}) {
  const channel = useRef<BroadcastChannel | null>(null);
  const now = useRef({ step, total, k8s });
  now.current = { step, total, k8s };

  // tell the speaker window where we are, and obey it
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const ch = new BroadcastChannel(presentChannel(scenario));
    channel.current = ch;
    ch.onmessage = (e: MessageEvent) => {
      if (!isPresentMessage(e.data)) return;
      if (e.data.type === 'goto') onGoto(e.data.step);
      else if (e.data.type === 'hello' && now.current.total) ch.postMessage({ type: 'step', ...now.current } satisfies PresentMessage);
    };
    return () => { ch.close(); channel.current = null; };
  }, [scenario, onGoto]);
  useEffect(() => {
    if (!total || step < 1) return;
    channel.current?.postMessage({ type: 'step', step, total, k8s } satisfies PresentMessage);
  }, [step, total, k8s]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || ownsKeys(e.target instanceof Element ? e.target : null)) return;
      // B (and '.', which clickers send for "blank") blacks the screen out; F goes full screen
      if (e.key === 'b' || e.key === 'B' || e.key === '.') { e.preventDefault(); onBlank((x) => !x); }
      else if (e.key === 'f' || e.key === 'F') { e.preventDefault(); toggleFullscreen(); }
      else if (e.key === 'Escape') onBlank(() => false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onBlank]);

  const notes = fill(t.notesHref, { scenario });
  return (
    <>
      <label className="fp-speed">
        {t.besideStep}{' '}
        <select value={show} onChange={(e) => onShow(e.currentTarget.value as Show)}>
          <option value="diagram">{t.showDiagram}</option>
          <option value="log">{t.showLog}</option>
          <option value="objects">{t.showObjects}</option>
          <option value="world">{t.showWorld}</option>
        </select>
      </label>
      <button type="button" className="fp-btn fp-btn-text" onClick={toggleFullscreen} title={t.fullScreenTitle}>{t.fullScreen}</button>
      <a className="fp-btn fp-btn-text" href={notes} target="csi-flows-notes"
        onClick={(e) => { e.preventDefault(); window.open(notes, 'csi-flows-notes', 'popup,width=900,height=700'); }}>
        {t.speakerNotes}
      </a>
    </>
  );
}
