/**
 * The playground's scenario in its URL: `?s=` is the YAML, deflated (CompressionStream 'deflate-raw',
 * in every current browser and Node ≥ 21) and written in base64url, so a link carries the whole
 * scenario and no server keeps anything. No library: the platform's streams do the work.
 */

/** The most text a link may unpack to: the limit scenarioFromManifests takes (1024 KiB). */
export const MAX_SCENARIO_BYTES = 1024 * 1024;

export class ShareError extends Error {
  override name = 'ShareError';
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new ShareError('it has characters that base64url does not use');
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4);
  let bin: string;
  try { bin = atob(b64); } catch { throw new ShareError('it is not base64url'); }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Read a stream to its end, at most `max` bytes (a small link must not unpack to gigabytes). */
async function readAll(stream: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new ShareError(`it unpacks to more than ${Math.round(max / 1024)} KiB`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

/** The YAML as the `s` parameter's value. */
export async function encodeScenario(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return toBase64Url(await readAll(stream, Number.POSITIVE_INFINITY));
}

/** The YAML an `s` parameter carries; a ShareError saying why when it cannot be read. */
export async function decodeScenario(s: string): Promise<string> {
  if (!s) throw new ShareError('it is empty');
  const packed = fromBase64Url(s);
  let bytes: Uint8Array;
  try {
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    bytes = await readAll(stream, MAX_SCENARIO_BYTES);
  } catch (e) {
    if (e instanceof ShareError) throw e;
    throw new ShareError('it does not unpack (the link may have been cut short when it was copied)');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ShareError('it does not unpack to text');
  }
}
