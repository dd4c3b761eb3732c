/**
 * `client:player`: when a chapter's flow player hydrates.
 *
 * A chapter opens on its prose and the player sits below it (on a phone, a screen or more down), so
 * hydrating React at load spends the first seconds of a slow phone on a widget nobody sees yet
 * (Lighthouse, mobile defaults: total blocking time 430 ms and performance 0.86 with `client:load`).
 * The server-rendered player is already on the page, so it hydrates:
 * - at once when the URL asks the player for something (a step, a flow, a version, large text, a
 *   what-if, or the #player anchor the chapter's step links carry), so shared links behave as before;
 * - otherwise when it comes within 200 px of the viewport, as `client:visible` does.
 * Astro inlines this in every chapter, inside the chapter's JavaScript budget: it stays this small.
 */
import type { ClientDirective } from 'astro';

const playerDirective: ClientDirective = (load, _options, el) => {
  let io: IntersectionObserver | undefined;
  const hydrate = async (): Promise<void> => {
    io?.disconnect();
    await (await load())();
  };
  if (location.hash === '#player' || /[?&](step|flow|k8s|large|fault|shutdown|delete|driver)=/.test(location.search)) {
    void hydrate();
    return;
  }
  io = new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) void hydrate(); }, { rootMargin: '200px' });
  // the island is display: contents; its children have boxes (as Astro's client:visible observes them)
  for (const child of Array.from(el.children)) io.observe(child);
};

export default playerDirective;

declare global {
  namespace Astro {
    interface ClientDirectives {
      'client:player'?: boolean;
    }
  }
}
