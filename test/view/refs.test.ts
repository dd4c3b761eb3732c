/** Issue and PR numbers in the site's data texts become links (src/components/site/refs.mjs). */
import { describe, expect, it } from 'vitest';
import { splitRefs } from '../../src/components/site/refs.ts';

describe('splitRefs', () => {
  it('links kubernetes#N, the sidecars\' and ceph-csi\'s numbers to their repositories', () => {
    expect(splitRefs('fixed by kubernetes#104526, see external-attacher#123 and ceph-csi#4000.')).toEqual([
      'fixed by ',
      { text: 'kubernetes#104526', href: 'https://github.com/kubernetes/kubernetes/issues/104526' },
      ', see ',
      { text: 'external-attacher#123', href: 'https://github.com/kubernetes-csi/external-attacher/issues/123' },
      ' and ',
      { text: 'ceph-csi#4000', href: 'https://github.com/ceph/ceph-csi/issues/4000' },
      '.',
    ]);
  });

  it('a bare #N is linked only after a repository was named, to that repository', () => {
    expect(splitRefs('issue #72181 alone')).toEqual(['issue #72181 alone']);
    expect(splitRefs('kubernetes#88565 (and the older #72181)')).toEqual([
      { text: 'kubernetes#88565', href: 'https://github.com/kubernetes/kubernetes/issues/88565' },
      ' (and the older ',
      { text: '#72181', href: 'https://github.com/kubernetes/kubernetes/issues/72181' },
      ')',
    ]);
  });

  it('leaves text without references, anchors and short numbers alone', () => {
    expect(splitRefs('no refs here')).toEqual(['no refs here']);
    expect(splitRefs('see /components/kubelet/#chart-x and step #12')).toEqual(['see /components/kubelet/#chart-x and step #12']);
    expect(splitRefs('')).toEqual([]);
  });
});
