/**
 * The code samples of the embed docs (/embed/ and /zh/embed/): an <iframe> per scenario, the step
 * message, and a page that drives a player. The same API in both languages; only the player's address
 * differs (/embed/<id>/ or /zh/embed/<id>/). (The samples' text is flush left: it is shown as written.)
 */
export function embedSamples(site: URL | undefined, base: '' | '/zh') {
  // Absolute addresses when the site's address is configured; otherwise paths on this site.
  const abs = (p: string): string => (site ? new URL(p, site).href : p);
  const snippet = (id: string, title: string): string =>
    `<iframe src="${abs(`${base}/embed/${id}/`)}" title="${title.replace(/"/g, '&quot;')}" width="100%" height="720" style="border:0" allow="fullscreen"></iframe>`;
const stepMessage = `{
  type: 'csi-flows:step',
  scenario: 'attach',   // the flow shown
  step: 12,             // 1-based
  total: 57,            // steps in this flow and version
  k8s: '1.30',          // the version shown
  summary: '…',         // the step's summary, as the player shows it
}`;

const example = `<iframe id="player" src="${abs(`${base}/embed/attach/`)}" title="CSI Flows: attach"
        width="100%" height="720" style="border:0"></iframe>
<button type="button" id="play">Play</button> <button type="button" id="pause">Pause</button>
<script>
  const frame = document.getElementById('player');
  const playerOrigin = new URL(frame.src, location.href).origin;
  const send = (message) => frame.contentWindow.postMessage(message, playerOrigin);
  let ready = false;

  // Player -> page: where the player is. The first message says the flow is loaded.
  window.addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow || event.origin !== playerOrigin) return;
    const m = event.data;
    if (!m || m.type !== 'csi-flows:step') return;
    console.log(\`step \${m.step} of \${m.total}: \${m.summary}\`);
    if (!ready) {
      ready = true;
      send({ type: 'csi-flows:goto', step: 12 }); // page -> player
    }
  });
  document.getElementById('play').onclick = () => send({ type: 'csi-flows:play' });
  document.getElementById('pause').onclick = () => send({ type: 'csi-flows:pause' });
</script>`;
  return { snippet, stepMessage, example };
}
